import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Why a screen shows its record without the controls to change it: the member's role. */
export function ReadOnlyNote({ children }: { children: ReactNode }) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden />}>
      {children}
    </Alert>
  );
}
