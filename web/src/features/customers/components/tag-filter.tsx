import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** Typing pauses this long before the list is filtered, as the search box does. */
const TAG_DEBOUNCE_MS = 300;

/** Filters the list by one tag, typed as it was given to customers. */
export function TagFilter({ value, onChange }: { value: string; onChange(tag: string | null): void }) {
  const [draft, setDraft] = useState(value);
  const commit = useDebouncedCallback((tag: string) => onChange(tag.trim() || null), TAG_DEBOUNCE_MS);
  // Back/forward or "Clear" change the URL; the box follows.
  useEffect(() => setDraft(value), [value]);

  return (
    <TextInput
      label="Tag"
      placeholder="Any tag"
      value={draft}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onBlur={commit.flush}
      w={{ base: '100%', sm: 150 }}
    />
  );
}
