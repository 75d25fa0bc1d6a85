import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled fact of a record (customer, lead), inside a `<dl>`; an empty one says so instead of leaving a gap. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === '' || children === false || children === null || children === undefined;
  return (
    <div>
      <Text component="dt" fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Box component="dd" m={0}>
        {empty ? <Text c="dimmed">Not recorded</Text> : children}
      </Box>
    </div>
  );
}
