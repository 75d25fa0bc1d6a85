import { FIGURES, type FigureName } from '@coverdesk/contract';
import { Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { MouseEvent } from 'react';

/**
 * A figure's label with its glossary definition (contract FIGURES, docs/figures.md) on hover, touch or
 * keyboard focus, so every screen that shows the figure says what it counts in the same words.
 */
export function FigureLabel({ label, figure }: { label: string; figure?: FigureName | undefined }) {
  if (!figure) return <>{label}</>;
  const split = label.lastIndexOf(' ') + 1;
  const [head, last] = [label.slice(0, split), label.slice(split)];
  return (
    <Tooltip
      label={FIGURES[figure].definition}
      multiline
      w={280}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      <Text
        component="span"
        inherit
        // A tab stop of its own: the definition opens on focus as on hover, and the tooltip's role
        // makes it the label's description while open.
        tabIndex={0}
        className="mantine-focus-auto"
        // Inside a card that is a link (the dashboard's), a tap on the label opens the definition
        // instead of leaving the page.
        onClick={(event: MouseEvent) => event.preventDefault()}
      >
        {/* The icon stays with the label's last word when a narrow card wraps it. */}
        {head}
        <span style={{ whiteSpace: 'nowrap' }}>
          {last}
          <IconInfoCircle size={14} aria-hidden style={{ marginLeft: 4, verticalAlign: '-2px' }} />
        </span>
      </Text>
    </Tooltip>
  );
}
