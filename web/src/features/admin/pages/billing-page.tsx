import {
  type AdminBilling,
  type AdminBillingEvent,
  BILLING_EVENT_TYPES,
  PLAN_CURRENCY,
} from '@coverdesk/contract';
import { Anchor, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { FigureCard } from '../../../components/charts/chart-card.js';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { SUBSCRIPTION_STATES } from '../../../components/subscription-badge.js';
import { BILLING_EVENT_LABELS } from '../../../lib/billing-events.js';
import { formatDate, formatMoney, TABULAR_FIGURES } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useDevice } from '../../../lib/viewport.js';
import { SubscriptionStates } from '../components/subscription-states.js';
import { usePlatformBilling, usePlatformBillingEvents } from '../figures-api.js';

const FILTERS = ['type', 'date_from', 'date_to'] as const;
const TYPE_OPTIONS = BILLING_EVENT_TYPES.map((type) => ({ value: type, label: BILLING_EVENT_LABELS[type] }));

const money = (amount: string | null) => (amount ? formatMoney(amount, PLAN_CURRENCY) : '—');
const agencyHref = (tenantId: string) => `/admin/tenants/${tenantId}`;

/** Subscriptions across the platform: how many in each state, who is past due, and every billing event. */
export function Component() {
  const billing = usePlatformBilling();
  return (
    <Stack maw={1200}>
      {billing.isPending ? (
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton h={110} radius="md" />
          <Skeleton h={160} radius="md" />
        </Stack>
      ) : billing.isError ? (
        <ErrorState
          title="The subscriptions could not be loaded"
          error={billing.error}
          onRetry={() => void billing.refetch()}
        />
      ) : (
        <>
          <FigureCard
            title="Subscriptions by state"
            description="Every agency's subscription as it stands now"
          >
            <SubscriptionStates counts={billing.data.subscriptions} />
          </FigureCard>
          <PastDue rows={billing.data.past_due} />
        </>
      )}
      <BillingEvents />
    </Stack>
  );
}

function PastDue({ rows }: { rows: AdminBilling['past_due'] }) {
  const device = useDevice();
  return (
    <FigureCard
      title="Past due"
      description="Agencies whose last payment failed and is being retried; they keep access meanwhile."
    >
      {rows.length === 0 ? (
        <Text c="dimmed">No agency is past due.</Text>
      ) : device === 'mobile' ? (
        <Stack gap="xs">
          {rows.map((row) => (
            <Card key={row.tenant_id} withBorder padding="sm" component={Link} to={agencyHref(row.tenant_id)}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text fw={600}>{row.agency}</Text>
                <Text style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}>{money(row.amount)}</Text>
              </Group>
              <Text fz="sm" c="dimmed">
                {row.plan}, {row.billing_cycle} · since {formatDate(row.since)}
              </Text>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Agency</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Past due since</Table.Th>
                <Table.Th ta="right">Amount due</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.tenant_id}>
                  <Table.Td>
                    <Anchor component={Link} to={agencyHref(row.tenant_id)} fw={600}>
                      {row.agency}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {row.plan}, {row.billing_cycle}
                  </Table.Td>
                  <Table.Td>{formatDate(row.since)}</Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    {money(row.amount)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </FigureCard>
  );
}

/** The plan ("Professional → Starter" when it changed) and cycle after the event, and the change of state. */
const details = (event: AdminBillingEvent) =>
  [
    event.from_plan_name && event.plan_name && event.from_plan_name !== event.plan_name
      ? `${event.from_plan_name} → ${event.plan_name}`
      : event.plan_name,
    event.billing_cycle,
    event.from_status && event.to_status && event.from_status !== event.to_status
      ? `${SUBSCRIPTION_STATES[event.from_status].label} → ${SUBSCRIPTION_STATES[event.to_status].label}`
      : null,
  ]
    .filter(Boolean)
    .join(' · ');

/** An admin's change carries the reason they gave; others a note of what happened. */
const note = (event: AdminBillingEvent) =>
  event.note && (event.type === 'changed_by_admin' ? `Reason: ${event.note}` : event.note);

const who = (event: AdminBillingEvent) =>
  event.actor ?? (event.provider === 'paddle' && event.provider_event_id ? 'Paddle' : 'Coverdesk');

const columns: Column<AdminBillingEvent>[] = [
  { key: 'agency', header: 'Agency', maxWidth: 220, render: (event) => event.agency },
  { key: 'occurred_at', header: 'Date', render: (event) => formatDate(event.occurred_at) },
  { key: 'type', header: 'Event', render: (event) => BILLING_EVENT_LABELS[event.type] },
  {
    key: 'details',
    header: 'Details',
    maxWidth: 300,
    // The note on a line of its own, so the change itself is never the part cut short.
    render: (event) => (
      <>
        <div>{details(event)}</div>
        {note(event) && (
          <Text fz="xs" c="dimmed">
            {note(event)}
          </Text>
        )}
      </>
    ),
  },
  { key: 'actor', header: 'By', render: who },
  { key: 'amount', header: 'Amount', numeric: true, render: (event) => money(event.amount) },
];

/** Every agency's billing history in one list, newest first, by agency, event and day. */
function BillingEvents() {
  const params = useListParams(FILTERS, '-occurred_at');
  const events = usePlatformBillingEvents(params.query);
  return (
    <Stack gap="sm" component="section" aria-labelledby="billing-events">
      <Title order={2} fz="h4" id="billing-events">
        Billing events
      </Title>
      <ListToolbar
        params={params}
        searchLabel="Search agency"
        filters={
          <>
            <FilterSelect
              params={params}
              name="type"
              label="Event"
              placeholder="Any event"
              data={TYPE_OPTIONS}
              width={220}
            />
            <FilterDate params={params} name="date_from" label="From" />
            <FilterDate params={params} name="date_to" label="To" />
          </>
        }
      />
      <DataList
        noun={{ one: 'billing event', many: 'billing events' }}
        query={events}
        params={params}
        columns={columns}
        href={(event) => agencyHref(event.tenant_id)}
        card={(event) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{BILLING_EVENT_LABELS[event.type]}</Text>
              {event.amount && (
                <Text style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}>{money(event.amount)}</Text>
              )}
            </Group>
            <Text fz="sm">{event.agency}</Text>
            <Text fz="xs" c="dimmed">
              {[formatDate(event.occurred_at), details(event), who(event)].filter(Boolean).join(' · ')}
            </Text>
            {note(event) && <Text fz="xs">{note(event)}</Text>}
          </Stack>
        )}
        empty={
          <EmptyState icon={IconReceipt} title="No billing events yet">
            Each trial started, subscription, plan change, payment and cancellation of every agency is listed
            here.
          </EmptyState>
        }
      />
    </Stack>
  );
}
