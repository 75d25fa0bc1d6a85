import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One labelled fact of a record (customer, lead), inside a `<dl>`; an empty one says so instead of
 * leaving a gap, in the words `empty` gives where "Not recorded" would read oddly.
 */
export function DetailField({
  label,
  children,
  empty: emptyText = 'Not recorded',
}: {
  label: string;
  children: ReactNode;
  empty?: string;
}) {
  const empty = children === '' || children === false || children === null || children === undefined;
  return (
    <div>
      <Text component="dt" fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Box component="dd" m={0}>
        {empty ? <Text c="dimmed">{emptyText}</Text> : children}
      </Box>
    </div>
  );
}
