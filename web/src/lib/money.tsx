import { formatMoney } from './format.js';
import { useSession } from './session-context.js';

const currencyNames = new Intl.DisplayNames(undefined, { type: 'currency' });

/** "EUR — Euro". */
export const currencyName = (code: string): string => `${code} — ${currencyNames.of(code) ?? code}`;

/** Every currency an agency may keep its books in, by code. */
export const currencyChoices = (): { value: string; label: string }[] =>
  Intl.supportedValuesOf('currency').map((code) => ({ value: code, label: currencyName(code) }));

/** Formats amounts in the signed-in agency's currency (Profile settings). */
export function useFormatMoney(): (amount: string) => string {
  const { state } = useSession();
  const currency = state.user?.currency ?? 'USD';
  return (amount) => formatMoney(amount, currency);
}

/** An amount in the agency's currency, for lists and details. */
export function Money({ amount }: { amount: string }) {
  return useFormatMoney()(amount);
}
