import { FIGURES, type FigureName } from '@coverdesk/contract';
import { Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/**
 * A figure's label with its glossary definition (contract FIGURES, docs/figures.md) on hover or touch,
 * so every screen that shows the figure says what it counts in the same words.
 */
export function FigureLabel({ label, figure }: { label: string; figure?: FigureName | undefined }) {
  if (!figure) return <>{label}</>;
  return (
    <Tooltip
      label={FIGURES[figure].definition}
      multiline
      w={280}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      <Group component="span" gap={4} wrap="nowrap" display="inline-flex">
        <Text component="span" inherit>
          {label}
        </Text>
        <IconInfoCircle size={14} aria-hidden />
      </Group>
    </Tooltip>
  );
}
