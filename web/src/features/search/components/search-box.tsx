import type { SearchType } from '@coverdesk/contract';
import {
  ActionIcon,
  Box,
  Collapse,
  Combobox,
  Group,
  Indicator,
  Kbd,
  Loader,
  Paper,
  Popover,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { activeFilterCount, type SearchState } from '../use-search-state.js';
import classes from './search-box.module.css';
import { SearchFilters } from './search-filters.js';
import { SearchResultRow } from './search-result-row.js';

export const SEARCH_PLACEHOLDER = 'Search customers, policies, payments, companies...';

/** The shortcut as the keyboard in front of the broker writes it. */
const SHORTCUT = /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘ K' : 'Ctrl K';

export interface SearchScope {
  /** The search types the plan allows, besides All. */
  types: readonly SearchType[];
  /** Whether the plan has insurers, for the Company filter. */
  insurers: boolean;
}

/** What the list says above its results: searching, the count, or that nothing matched. */
function ResultsStatus({ state }: { state: SearchState }) {
  const count = state.answer?.total ?? 0;
  let message: string;
  if (state.searching) message = 'Searching...';
  else if (count === 0)
    message = state.sentText ? `No results found for "${state.sentText}"` : 'No results found';
  else message = `${count} ${count === 1 ? 'result' : 'results'}`;
  return (
    <Group gap="xs" px="sm" py={6} wrap="nowrap" role="status" aria-live="polite">
      {state.searching && <Loader size={12} aria-hidden />}
      <Text fz="xs" c="dimmed" fw={500}>
        {message}
      </Text>
    </Group>
  );
}

function ResultOptions({ state }: { state: SearchState }) {
  return (
    <Combobox.Options aria-label="Search results">
      {(state.answer?.results ?? []).map((result) => (
        <Combobox.Option
          key={`${result.type}:${result.id}`}
          value={result.url}
          py={6}
          className={classes.option}
        >
          <SearchResultRow result={result} />
        </Combobox.Option>
      ))}
    </Combobox.Options>
  );
}

function FilterButton({
  state,
  opened,
  onClick,
}: {
  state: SearchState;
  opened: boolean;
  onClick: () => void;
}) {
  const count = activeFilterCount(state.filters);
  return (
    <Indicator label={count} size={16} disabled={count === 0} offset={4}>
      <ActionIcon
        variant={opened || count > 0 ? 'light' : 'default'}
        size={36}
        onClick={onClick}
        aria-label={count > 0 ? `Search filters (${count} applied)` : 'Search filters'}
        aria-expanded={opened}
      >
        <IconAdjustmentsHorizontal size={18} />
      </ActionIcon>
    </Indicator>
  );
}

/** The advanced filter of one search box: applying it searches with the new filters. */
function FilterPanel({
  state,
  scope,
  onApplied,
}: {
  state: SearchState;
  scope: SearchScope;
  onApplied: () => void;
}) {
  return (
    <SearchFilters
      applied={state.filters}
      types={scope.types}
      insurers={scope.insurers}
      onApply={(filters) => {
        state.setFilters(filters);
        onApplied();
      }}
    />
  );
}

/**
 * The results' first row is chosen as they arrive, so Enter opens the best match. Only a new answer
 * does it: the store changes with every render, and choosing again then would undo the arrow keys.
 */
function useFirstSelected(state: SearchState, combobox: ReturnType<typeof useCombobox>) {
  const store = useRef(combobox);
  store.current = combobox;
  const answer = state.answer;
  useEffect(() => {
    if (answer && answer.results.length > 0) store.current.selectFirstOption();
    else store.current.resetSelectedOption();
  }, [answer]);
}

/**
 * The header's search box: results in a dropdown under it, the advanced filter in a popover beside
 * it. Arrow keys move through the results, Enter opens the chosen one, Escape closes the dropdown.
 */
export function HeaderSearch({ state, scope }: { state: SearchState; scope: SearchScope }) {
  const navigate = useNavigate();
  const combobox = useCombobox();
  const [filtersOpen, setFiltersOpen] = useState(false);
  useFirstSelected(state, combobox);
  const open = (url: string) => {
    combobox.closeDropdown();
    state.reset();
    navigate(url);
  };
  return (
    <Group gap="xs" wrap="nowrap" w={540} maw="100%">
      <Combobox store={combobox} onOptionSubmit={open} width={520} position="bottom-start" shadow="md">
        <Combobox.Target>
          <TextInput
            aria-label="Search"
            placeholder={SEARCH_PLACEHOLDER}
            leftSection={<IconSearch size={16} aria-hidden />}
            rightSection={<Kbd size="xs">{SHORTCUT}</Kbd>}
            rightSectionWidth={56}
            value={state.text}
            onChange={(event) => {
              state.setText(event.currentTarget.value);
              combobox.openDropdown();
            }}
            onFocus={() => state.active && combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            style={{ flex: 1 }}
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={!state.active} p={0}>
          <ResultsStatus state={state} />
          {/* Arrow keys scroll the chosen result into view; a mouse or a touch scrolls the list itself. */}
          <div className={classes.scroll} tabIndex={-1}>
            <ResultOptions state={state} />
          </div>
        </Combobox.Dropdown>
      </Combobox>
      <Popover
        opened={filtersOpen}
        onChange={setFiltersOpen}
        position="bottom-end"
        width={380}
        shadow="md"
        trapFocus
        // The button says itself whether the panel is open; the target's wrapper must not.
        withRoles={false}
      >
        <Popover.Target>
          <div>
            <FilterButton
              state={state}
              opened={filtersOpen}
              onClick={() => setFiltersOpen((open) => !open)}
            />
          </div>
        </Popover.Target>
        <Popover.Dropdown role="dialog" aria-label="Search filters">
          <FilterPanel
            state={state}
            scope={scope}
            onApplied={() => {
              setFiltersOpen(false);
              combobox.openDropdown();
            }}
          />
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

/**
 * The search as a panel of its own, for the Cmd/Ctrl-K spotlight and the phone's full-screen search:
 * the box, the filter panel folding out under it, and the results listed below.
 */
export function SearchPanel({
  state,
  scope,
  onOpenResult,
  onClose,
}: {
  state: SearchState;
  scope: SearchScope;
  onOpenResult: (url: string) => void;
  onClose: () => void;
}) {
  const combobox = useCombobox({ opened: true });
  const [filtersOpen, setFiltersOpen] = useState(false);
  useFirstSelected(state, combobox);
  return (
    <Combobox store={combobox} onOptionSubmit={onOpenResult}>
      <Group gap="xs" wrap="nowrap">
        <Combobox.EventsTarget>
          <TextInput
            aria-label="Search"
            placeholder={SEARCH_PLACEHOLDER}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={state.text}
            onChange={(event) => state.setText(event.currentTarget.value)}
            // The list is always open here, so Escape closes the whole search.
            onKeyDown={(event) => event.key === 'Escape' && onClose()}
            data-autofocus
            size="md"
            style={{ flex: 1 }}
          />
        </Combobox.EventsTarget>
        <FilterButton state={state} opened={filtersOpen} onClick={() => setFiltersOpen((open) => !open)} />
      </Group>
      <Collapse expanded={filtersOpen}>
        <Paper withBorder p="sm" mt="sm" aria-label="Search filters" component="section">
          <FilterPanel state={state} scope={scope} onApplied={() => setFiltersOpen(false)} />
        </Paper>
      </Collapse>
      {state.active && (
        <Box mt="xs">
          <ResultsStatus state={state} />
          <ResultOptions state={state} />
        </Box>
      )}
    </Combobox>
  );
}
