import {
  CALENDAR_KIND_LABELS,
  CALENDAR_KIND_NAMES,
  type CalendarEvent,
  type DashboardLeads,
  type DashboardPayments,
  type DashboardPolicies,
  fromCents,
  LEAD_STATUS_LABELS,
  toCents,
} from '@coverdesk/contract';
import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { PaymentButton } from '../../../components/payment-button.js';
import { formatDate, formatTime, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** A short list with its heading, the way to the whole list, and what it shows when empty. */
function ListCard(props: {
  title: string;
  all: { to: string; label: string };
  empty: string;
  children: ReactNode[];
}) {
  const titleId = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={2} fz="h4" id={titleId}>
          {props.title}
        </Title>
        <Anchor component={Link} to={props.all.to} fz="sm" py={10}>
          {props.all.label}
        </Anchor>
      </Group>
      {props.children.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {props.empty}
        </Text>
      ) : (
        <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {props.children}
        </Stack>
      )}
    </Card>
  );
}

/**
 * A row of a list: what identifies it on the left and its figure on the right, with its action
 * on a line of its own below, so a phone's narrow row keeps room for the text.
 */
function Row({ children, figure, action }: { children: ReactNode; figure: ReactNode; action?: ReactNode }) {
  return (
    <Stack
      component="li"
      gap={6}
      py="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <div style={{ minWidth: 0 }}>{children}</div>
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
          {figure}
        </Stack>
      </Group>
      {action}
    </Stack>
  );
}

/** The longest overdue instalments, each paid in place with the payments page's own dialog. */
export function OverduePayments({ payments }: { payments: DashboardPayments }) {
  return (
    <ListCard
      title="Overdue payments"
      all={{ to: '/payments?status=overdue', label: `All ${payments.overdue_count} overdue` }}
      empty="Nothing overdue. Instalments still unpaid after their due date show here, oldest first, to be paid in place."
    >
      {payments.overdue.map((row) => (
        <Row
          key={row.id}
          figure={
            <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
              <Money amount={fromCents(toCents(row.amount_due) - toCents(row.amount_paid))} />
            </Text>
          }
          action={<PaymentButton row={row} />}
        >
          <Text fz="sm" fw={600} truncate>
            {row.customer_name}
          </Text>
          <Text fz="xs" c="dimmed">
            {row.policy_number} · instalment {row.sequence} · due {formatDate(row.due_date)}
          </Text>
          <Text fz="xs" c="red.9" fw={600}>
            {days(row.days_overdue)} overdue
          </Text>
        </Row>
      ))}
    </ListCard>
  );
}

/** The policies ending soonest, with the way to renew each. */
export function RenewalsDue({ policies }: { policies: DashboardPolicies }) {
  const canWork = useCan('work');
  return (
    <ListCard
      title="Renewals due"
      all={{ to: '/policies?expiring_within_days=30', label: `All ${policies.expiring_in_30_days} expiring` }}
      empty="No policy ends in the next 30 days. Active policies coming to their end show here, soonest first."
    >
      {policies.renewals_due.map((policy) => (
        <Row
          key={policy.id}
          figure={
            <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
              <Money amount={policy.total_premium} />
            </Text>
          }
          action={
            canWork && (
              <Group>
                <Button
                  component={Link}
                  to={`/policies/${policy.id}/renew`}
                  size="xs"
                  variant="light"
                  aria-label={`Renew ${policy.policy_number}`}
                >
                  Renew
                </Button>
              </Group>
            )
          }
        >
          <Anchor component={Link} to={`/policies/${policy.id}`} fz="sm" fw={600}>
            {policy.policy_number}
          </Anchor>
          <Text fz="xs" c="dimmed" truncate>
            {policy.customer_name} · {policy.company_name}
          </Text>
          <Text fz="xs">
            Ends {formatDate(policy.end_date)} (
            {policy.days_left === 0 ? 'today' : `in ${days(policy.days_left)}`})
          </Text>
        </Row>
      ))}
    </ListCard>
  );
}

/** The leads added last. */
export function RecentLeads({ leads }: { leads: DashboardLeads }) {
  return (
    <ListCard
      title="Recent leads"
      all={{ to: '/leads', label: 'All leads' }}
      empty="No leads yet. The people and businesses who may buy from you show here as you add them."
    >
      {leads.recent.map((lead) => (
        <Row
          key={lead.id}
          figure={
            <>
              <Badge color="gray">{LEAD_STATUS_LABELS[lead.status]}</Badge>
              {lead.estimated_premium && (
                <Text fz="sm" style={TABULAR_FIGURES}>
                  <Money amount={lead.estimated_premium} />
                </Text>
              )}
            </>
          }
        >
          <Anchor component={Link} to={`/leads/${lead.id}`} fz="sm" fw={600}>
            {lead.display_name}
          </Anchor>
          <Text fz="xs" c="dimmed">
            {[lead.policy_type_name, `added ${formatDate(lead.created_at)}`].filter(Boolean).join(' · ')}
          </Text>
        </Row>
      ))}
    </ListCard>
  );
}

/** The agenda shows this many of today's events; the calendar's day view has them all. */
const AGENDA_ROWS = 6;

/** Today's renewals, instalments, follow-ups, claim dates and meetings, as the calendar's day shows them. */
export function TodaysAgenda({ agenda, today }: { agenda: CalendarEvent[]; today: string }) {
  const records = agenda.reduce((sum, event) => sum + event.count, 0);
  return (
    <ListCard
      title="Today's agenda"
      all={{
        to: `/calendar?view=day&date=${today}`,
        label: records > 0 ? `All ${records} today` : 'Calendar',
      }}
      empty="Nothing on today. Renewals, instalments falling due, follow-ups, claim dates and your meetings show here on their day."
    >
      {agenda.slice(0, AGENDA_ROWS).map((event) => (
        <Row
          key={event.id}
          figure={
            <>
              <Badge color={event.overdue ? 'red' : 'gray'}>
                {event.overdue
                  ? 'Overdue'
                  : (event.count > 1 ? CALENDAR_KIND_LABELS : CALENDAR_KIND_NAMES)[event.kind]}
              </Badge>
              {event.amount && (
                <Text fz="sm" style={TABULAR_FIGURES}>
                  <Money amount={event.amount} />
                </Text>
              )}
            </>
          }
        >
          <Anchor component={Link} to={event.url} fz="sm" fw={600}>
            {event.title}
          </Anchor>
          <Text fz="xs" c="dimmed" truncate>
            {[event.all_day ? 'All day' : formatTime(event.start), event.company_name, event.assignee_name]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Row>
      ))}
    </ListCard>
  );
}
