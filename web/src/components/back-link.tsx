import { Anchor } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The way back to a list above a detail page: a small link, yet tall enough for a finger (44 px). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor
      component={Link}
      to={to}
      fz="sm"
      mih={44}
      display="inline-flex"
      style={{ alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
    >
      <IconArrowLeft size={14} aria-hidden />
      {children}
    </Anchor>
  );
}
