import { CALENDAR_KIND_LABELS, type CalendarEventKind } from '@coverdesk/contract';
import { Chip, Group } from '@mantine/core';
import {
  type Icon,
  IconAlertTriangle,
  IconCash,
  IconFileAlert,
  IconPhoneCall,
  IconRefresh,
  IconUsersGroup,
} from '@tabler/icons-react';

/** Each kind's colour (a Mantine palette) and icon: the icon and the title's words carry the kind too. */
export const KIND_STYLES: Record<CalendarEventKind, { color: string; icon: Icon }> = {
  renewal: { color: 'violet', icon: IconRefresh },
  installment: { color: 'blue', icon: IconCash },
  follow_up: { color: 'orange', icon: IconPhoneCall },
  claim_incident: { color: 'grape', icon: IconAlertTriangle },
  claim_reported: { color: 'pink', icon: IconFileAlert },
  meeting: { color: 'teal', icon: IconUsersGroup },
};

/**
 * A light background and a strong border in the kind's colour, with black text: every palette's
 * own dark shade is too faint on its light one for small text. Overdue instalments are red.
 */
export const eventColors = (kind: CalendarEventKind, overdue: boolean) => {
  const color = overdue ? 'red' : KIND_STYLES[kind].color;
  return {
    backgroundColor: `var(--mantine-color-${color}-1)`,
    borderColor: `var(--mantine-color-${color}-${overdue ? 8 : 6})`,
    textColor: 'var(--mantine-color-black)',
  };
};

/**
 * The legend, which is also the filter by kind: each chip shows a kind's colour, icon and name,
 * and hides or shows its events.
 */
export function KindChips(props: {
  kinds: readonly CalendarEventKind[];
  shown: CalendarEventKind[];
  onChange(shown: CalendarEventKind[]): void;
  touch: boolean;
}) {
  return (
    <Chip.Group
      multiple
      value={props.shown}
      onChange={(value) => props.onChange(value as CalendarEventKind[])}
    >
      <Group gap="xs" role="group" aria-label="Show on the calendar">
        {props.kinds.map((kind) => {
          const { color, icon: KindIcon } = KIND_STYLES[kind];
          return (
            <Chip
              key={kind}
              value={kind}
              color={color}
              variant="light"
              size={props.touch ? 'md' : 'sm'}
              styles={props.touch ? { label: { minHeight: 44 } } : undefined}
            >
              <KindIcon size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
              {CALENDAR_KIND_LABELS[kind]}
            </Chip>
          );
        })}
      </Group>
    </Chip.Group>
  );
}
