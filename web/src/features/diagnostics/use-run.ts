import { useCallback, useEffect, useRef, useState } from 'react';

/** Where a diagnostic run stands: what it is doing now, its result, or why it failed. */
export interface Run<Result> {
  running: boolean;
  progress: string;
  result: Result | undefined;
  error: unknown;
  start: () => void;
}

/**
 * Runs a diagnostic on demand, not on opening the page: on a live agency it walks every page of a
 * large book, so the support engineer decides when. Leaving the page stops it.
 */
export function useRun<Result>(
  work: (report: (progress: string) => void, signal: AbortSignal) => Promise<Result>,
): Run<Result> {
  const [state, setState] = useState<Omit<Run<Result>, 'start'>>({
    running: false,
    progress: '',
    result: undefined,
    error: undefined,
  });
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setState({ running: true, progress: 'Starting…', result: undefined, error: undefined });
    const report = (progress: string) => {
      if (!controller.signal.aborted) setState((before) => ({ ...before, progress }));
    };
    work(report, controller.signal).then(
      (result) => {
        if (!controller.signal.aborted) setState({ running: false, progress: '', result, error: undefined });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ running: false, progress: '', result: undefined, error });
      },
    );
  }, [work]);

  return { ...state, start };
}
