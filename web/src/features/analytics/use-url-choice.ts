import { useSearchParams } from 'react-router';

/**
 * One of a few choices (a period, a span of months) kept in the URL, so a view can be shared and
 * survives reload; anything else in the address (`mobile=true`) is left alone.
 */
export function useUrlChoice<Choice extends string>(
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): [Choice, (choice: Choice) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name);
  const choice = choices.find((candidate) => candidate === value) ?? fallback;
  const choose = (next: Choice) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === fallback) changed.delete(name);
        else changed.set(name, next);
        return changed;
      },
      { replace: true },
    );
  return [choice, choose];
}
