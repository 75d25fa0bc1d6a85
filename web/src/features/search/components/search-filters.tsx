import {
  SEARCH_TYPE_LABELS,
  SEARCH_TYPES,
  type SearchStatus,
  type SearchType,
  searchQuery,
} from '@coverdesk/contract';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { NO_FILTERS, type SearchFilterValues } from '../use-search-state.js';

const STATUS_CHOICES: { value: SearchStatus; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
];

/** The first message of each field the contract refuses, so the panel never sends a search the API answers 400. */
function problemsOf(values: SearchFilterValues): Partial<Record<keyof SearchFilterValues, string>> {
  const parsed = searchQuery.safeParse(values);
  if (parsed.success) return {};
  const problems: Partial<Record<keyof SearchFilterValues, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof SearchFilterValues;
    problems[field] ??= issue.message;
  }
  return problems;
}

/**
 * The advanced filter panel (the spec's fields and buttons). It edits a draft: nothing is searched
 * until Apply Filters, and Clear Filters empties and applies at once.
 */
export function SearchFilters({
  applied,
  types,
  insurers,
  onApply,
}: {
  applied: SearchFilterValues;
  /** The search types the plan allows, besides All. */
  types: readonly SearchType[];
  /** Whether the plan has insurers to choose from. */
  insurers: boolean;
  onApply: (filters: SearchFilterValues) => void;
}) {
  const [draft, setDraft] = useState(applied);
  const [checked, setChecked] = useState(false);
  const choices = useInsurerChoices(insurers);
  const problems = checked ? problemsOf(draft) : {};
  const set = (changes: Partial<SearchFilterValues>) => setDraft((current) => ({ ...current, ...changes }));
  const text = (field: 'date_from' | 'date_to' | 'amount_min' | 'amount_max') => ({
    value: draft[field],
    error: problems[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => set({ [field]: event.currentTarget.value }),
  });
  const apply = () => {
    setChecked(true);
    if (Object.keys(problemsOf(draft)).length === 0) onApply(draft);
  };
  return (
    <Stack gap="sm">
      <Select
        label="Search Type"
        allowDeselect={false}
        data={SEARCH_TYPES.filter((type) => type === 'all' || types.includes(type)).map((type) => ({
          value: type,
          label: SEARCH_TYPE_LABELS[type],
        }))}
        value={draft.type}
        onChange={(type) => set({ type: (type ?? 'all') as SearchType })}
        comboboxProps={{ withinPortal: false }}
      />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput type="date" label="Date From" {...text('date_from')} />
        <TextInput type="date" label="Date To" {...text('date_to')} />
      </SimpleGrid>
      {insurers && (
        <Select
          label="Company"
          placeholder="All companies"
          clearable
          searchable
          data={(choices.data ?? []).map((company) => ({ value: company.id, label: company.name }))}
          value={draft.company || null}
          onChange={(company) => set({ company: company ?? '' })}
          comboboxProps={{ withinPortal: false }}
        />
      )}
      <Select
        label="Status"
        allowDeselect={false}
        data={STATUS_CHOICES}
        value={draft.status}
        onChange={(status) => set({ status: (status ?? 'all') as SearchStatus })}
        comboboxProps={{ withinPortal: false }}
      />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label="Min Amount" inputMode="decimal" placeholder="0.00" {...text('amount_min')} />
        <TextInput label="Max Amount" inputMode="decimal" placeholder="0.00" {...text('amount_max')} />
      </SimpleGrid>
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          onClick={() => {
            setDraft(NO_FILTERS);
            setChecked(false);
            onApply(NO_FILTERS);
          }}
        >
          Clear Filters
        </Button>
        <Button onClick={apply}>Apply Filters</Button>
      </Group>
    </Stack>
  );
}
