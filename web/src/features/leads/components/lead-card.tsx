import type { Lead } from '@coverdesk/contract';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { formatMoment, isOverdue } from './lead-labels.js';

/** Who the lead is, what they want and when to get back to them: a board card's and a phone row's body. */
export function LeadCardBody({ lead, link = false }: { lead: Lead; link?: boolean }) {
  const overdue = isOverdue(lead);
  return (
    <Stack gap={2} miw={0}>
      {link ? (
        <Anchor component={Link} to={`/leads/${lead.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
          {lead.display_name}
        </Anchor>
      ) : (
        <Text fw={600} truncate>
          {lead.display_name}
        </Text>
      )}
      {(lead.policy_type_name || lead.estimated_premium) && (
        <Group gap={6}>
          {lead.policy_type_name && (
            <Text fz="sm" c="dimmed">
              {lead.policy_type_name}
            </Text>
          )}
          {lead.estimated_premium && (
            <Text fz="sm" c="dimmed" style={TABULAR_FIGURES}>
              <Money amount={lead.estimated_premium} />
            </Text>
          )}
        </Group>
      )}
      {lead.next_follow_up_at && (
        <Group gap={4} wrap="nowrap">
          {overdue && <IconClockExclamation size={14} color="var(--mantine-color-red-9)" aria-hidden />}
          <Text fz="xs" c={overdue ? 'red.9' : 'dimmed'} fw={overdue ? 600 : undefined}>
            {overdue ? 'Overdue: ' : 'Follow up '}
            {formatMoment(lead.next_follow_up_at)}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
