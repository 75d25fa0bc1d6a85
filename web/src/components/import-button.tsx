import type { ImportKind } from '@coverdesk/contract';
import { Button } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCan } from '../lib/use-can.js';
import { useDevice } from '../lib/viewport.js';

/** Opens the import screen set to a list's records, beside the list's own "New" button; only for a role that works the book. */
export function ImportButton({ kind }: { kind: ImportKind }) {
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  // An import adds records: work on the book.
  if (!useCan('work')) return null;
  return (
    <Button
      component={Link}
      to={`/policy-import?kind=${kind}`}
      variant="default"
      leftSection={<IconFileImport size={16} aria-hidden />}
      mih={touch}
    >
      Import
    </Button>
  );
}
