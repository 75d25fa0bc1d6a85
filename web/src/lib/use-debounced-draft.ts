import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** Typing pauses this long before a list searches or filters (the spec's search debounce). */
export const TYPING_DEBOUNCE_MS = 300;

/**
 * A text box bound to a value kept in the URL: typed freely, sent after a pause (trimmed, empty as
 * null), and following the URL when something else changes it (back, forward, "Clear").
 */
export function useDebouncedDraft(value: string, onCommit: (value: string | null) => void) {
  const [draft, setDraft] = useState(value);
  const commit = useDebouncedCallback((text: string) => onCommit(text.trim() || null), TYPING_DEBOUNCE_MS);
  // The URL holds the trimmed text: a space still being typed is not a change to undo.
  useEffect(() => setDraft((current) => (current.trim() === value ? current : value)), [value]);
  return {
    draft,
    change(text: string) {
      setDraft(text);
      commit(text);
    },
    /** Empties the box at once; a send still waiting is dropped, so the old text cannot return. */
    clear() {
      commit.cancel();
      setDraft('');
      onCommit(null);
    },
    cancel: commit.cancel,
    flush: commit.flush,
  };
}
