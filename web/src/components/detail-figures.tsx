import type { FigureName } from '@coverdesk/contract';
import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { TABULAR_FIGURES } from '../lib/format.js';
import { FigureLabel } from './figure-label.js';

/**
 * A key figure in a detail page's summary card: a small label above a large value; `figure` names its
 * glossary entry, whose definition the label shows on hover and focus.
 */
export function Figure({
  label,
  figure,
  children,
}: {
  label: string;
  figure?: FigureName;
  children: ReactNode;
}) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        <FigureLabel label={label} figure={figure} />
      </Text>
      <Text fw={700} fz="lg" style={TABULAR_FIGURES}>
        {children}
      </Text>
    </div>
  );
}

/** A labelled line of a detail section: the label at the left, the value at the right. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" ta="right" style={{ ...TABULAR_FIGURES, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}
