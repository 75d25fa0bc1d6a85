import type { FigureName } from '@coverdesk/contract';
import { Card, Grid, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABULAR_FIGURES } from '../lib/format.js';
import { FigureLabel } from './figure-label.js';

// A row of five headline figures above a list: five in a row on a desk; two by two on a phone, the
// last across the width below them.

const SPAN = { base: 5, md: 2 } as const;
const LAST_SPAN = { base: 10, md: 2 } as const;

export interface Figure {
  label: string;
  /** The glossary entry whose definition shows on hover of the label. */
  figure?: FigureName | undefined;
  value: ReactNode;
  /** A line that puts the figure in context. */
  note: ReactNode;
}

/** A figure's label, value and note, as every card of headline figures writes them. */
export function FigureLines({ figure }: { figure: Figure }) {
  return (
    <>
      <Text fz="sm" c="dimmed">
        <FigureLabel label={figure.label} figure={figure.figure} />
      </Text>
      <Text fz={{ base: 'lg', sm: 'xl' }} fw={700} style={TABULAR_FIGURES} mt={2}>
        {figure.value}
      </Text>
      <Text fz="xs" c="dimmed" mt={2}>
        {figure.note}
      </Text>
    </>
  );
}

/** The five figures, each a group named by its label; `label` names the row for screen readers. */
export function FiveFigures({ label, figures }: { label: string; figures: readonly Figure[] }) {
  return (
    <Grid columns={10} gap="sm" aria-label={label} component="section">
      {figures.map((figure, index) => (
        <Grid.Col key={figure.label} span={index === figures.length - 1 ? LAST_SPAN : SPAN}>
          <Card withBorder padding="md" role="group" aria-label={figure.label} h="100%">
            <FigureLines figure={figure} />
          </Card>
        </Grid.Col>
      ))}
    </Grid>
  );
}

/** The row while its figures load. */
export function FiveFiguresSkeleton() {
  return (
    <Grid columns={10} gap="sm">
      {[0, 1, 2, 3, 4].map((index) => (
        <Grid.Col key={index} span={index === 4 ? LAST_SPAN : SPAN}>
          <Skeleton h={96} radius="md" />
        </Grid.Col>
      ))}
    </Grid>
  );
}
