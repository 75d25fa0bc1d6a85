import { TextInput } from '@mantine/core';
import { useDebouncedDraft } from '../../../lib/use-debounced-draft.js';

/** Filters the list by one tag, typed as it was given to customers. */
export function TagFilter({ value, onChange }: { value: string; onChange(tag: string | null): void }) {
  const typed = useDebouncedDraft(value, onChange);
  return (
    <TextInput
      label="Tag"
      placeholder="Any tag"
      value={typed.draft}
      onChange={(event) => typed.change(event.currentTarget.value)}
      onBlur={typed.flush}
      w={{ base: '100%', sm: 150 }}
    />
  );
}
