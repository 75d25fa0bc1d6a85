import { Modal } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useNavigate } from 'react-router';
import { useSearchState } from '../use-search-state.js';
import { SearchPanel, type SearchScope } from './search-box.js';

/** Cmd-K on a Mac, Ctrl-K elsewhere, from anywhere in the signed-in app, inside a text box too. */
export function useSearchShortcut(open: () => void) {
  useHotkeys([['mod+K', open]], []);
}

/**
 * The search on its own above the page: the Cmd/Ctrl-K spotlight on a desk (the quick search, its
 * first results), full screen on a phone. Opening a result closes it; so does Escape.
 */
export function SearchSpotlight({
  opened,
  onClose,
  scope,
  limit,
  fullScreen,
}: {
  opened: boolean;
  onClose: () => void;
  scope: SearchScope;
  limit: number;
  fullScreen: boolean;
}) {
  const state = useSearchState(limit);
  const navigate = useNavigate();
  const close = () => {
    state.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Search"
      fullScreen={fullScreen}
      size="xl"
      yOffset="8vh"
      closeButtonProps={{ 'aria-label': 'Close search' }}
    >
      <SearchPanel
        state={state}
        scope={scope}
        onClose={close}
        onOpenResult={(url) => {
          close();
          navigate(url);
        }}
      />
    </Modal>
  );
}
