import type { FigureName } from '@coverdesk/contract';
import { Card, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FigureLabel } from '../../../components/figure-label.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';

/** A headline figure: what it is, the figure, and a line that puts it in context. */
export function StatCard(props: { label: string; value: ReactNode; hint?: ReactNode; figure?: FigureName }) {
  return (
    <Card withBorder padding="md" role="group" aria-label={props.label}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        <FigureLabel label={props.label} figure={props.figure} />
      </Text>
      <Text fw={700} fz="xl" mt={2} style={{ ...TABULAR_FIGURES, overflowWrap: 'anywhere' }}>
        {props.value}
      </Text>
      {props.hint && (
        <Text fz="sm" c="dimmed" mt={2}>
          {props.hint}
        </Text>
      )}
    </Card>
  );
}

/** The row of headline figures at the top of an analytics screen: two across on a phone. */
export function StatGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, xl: 6 }} spacing="sm">
      {children}
    </SimpleGrid>
  );
}
