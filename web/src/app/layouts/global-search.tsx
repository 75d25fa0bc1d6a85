import {
  QUICK_SEARCH_LIMIT,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_RESULT_MODULES,
  SEARCH_RESULT_TYPES,
  SEARCH_TYPE_OF,
} from '@coverdesk/contract';
import { ActionIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { HeaderSearch, type SearchScope } from '../../features/search/components/search-box.js';
import { SearchSpotlight, useSearchShortcut } from '../../features/search/components/search-spotlight.js';
import { useSearchState } from '../../features/search/use-search-state.js';
import { useAccess } from '../access.js';

/** What the plan lets the search look through: the API refuses the rest as well. */
function useSearchScope(): SearchScope {
  const access = useAccess();
  return {
    types: SEARCH_RESULT_TYPES.filter((kind) => access.canOpen(SEARCH_RESULT_MODULES[kind])).map(
      (kind) => SEARCH_TYPE_OF[kind],
    ),
    insurers: access.canOpen('module_companies'),
  };
}

/** The desk's header: the search box with its dropdown, and the Cmd/Ctrl-K spotlight's quick search. */
export function DesktopSearch() {
  const scope = useSearchScope();
  const state = useSearchState(SEARCH_DEFAULT_LIMIT);
  const [spotlight, { open, close }] = useDisclosure(false);
  useSearchShortcut(open);
  return (
    <>
      <HeaderSearch state={state} scope={scope} />
      <SearchSpotlight
        opened={spotlight}
        onClose={close}
        scope={scope}
        limit={QUICK_SEARCH_LIMIT}
        fullScreen={false}
      />
    </>
  );
}

/** A phone's header: a search button (or Cmd/Ctrl-K on a keyboard) opening the search full screen. */
export function MobileSearch() {
  const scope = useSearchScope();
  const [opened, { open, close }] = useDisclosure(false);
  useSearchShortcut(open);
  return (
    <>
      <ActionIcon variant="subtle" color="gray" size={44} onClick={open} aria-label="Search">
        <IconSearch size={22} />
      </ActionIcon>
      <SearchSpotlight
        opened={opened}
        onClose={close}
        scope={scope}
        limit={SEARCH_DEFAULT_LIMIT}
        fullScreen
      />
    </>
  );
}
