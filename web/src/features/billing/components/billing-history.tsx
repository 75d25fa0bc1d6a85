import { type BillingEvent, PLAN_CURRENCY } from '@coverdesk/contract';
import { Card, Group, Pagination, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { BILLING_EVENT_LABELS as EVENT_LABELS } from '../../../lib/billing-events.js';
import { formatDate, formatMoney, TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { useBillingEvents } from '../api.js';

const PAGE_SIZE = 10;

const who = (event: BillingEvent) =>
  event.actor ?? (event.provider === 'paddle' && event.provider_event_id ? 'Paddle' : 'Coverdesk');

const what = (event: BillingEvent) =>
  [event.plan_name, event.billing_cycle, event.note].filter(Boolean).join(' · ');

/** Every change and payment of the subscription, newest first: what, when, who, and the amount. */
export function BillingHistory() {
  const [page, setPage] = useState(1);
  const events = useBillingEvents(page);
  const device = useDevice();
  const amount = (event: BillingEvent) => (event.amount ? formatMoney(event.amount, PLAN_CURRENCY) : '—');

  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="sm">
        Invoices and billing history
      </Title>
      {events.isPending ? (
        <Skeleton h={120} />
      ) : events.isError ? (
        <ErrorState
          title="Failed to fetch the billing history"
          error={events.error}
          onRetry={() => void events.refetch()}
        />
      ) : events.data.count === 0 ? (
        <Text c="dimmed">Nothing yet: subscribing, plan changes and payments will be listed here.</Text>
      ) : (
        <Stack gap="sm">
          {device === 'mobile' ? (
            events.data.results.map((event) => (
              <Card key={event.id} withBorder padding="sm">
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <Text fw={600}>{EVENT_LABELS[event.type]}</Text>
                  <Text style={{ ...TABULAR_FIGURES, whiteSpace: 'nowrap' }}>{amount(event)}</Text>
                </Group>
                <Text fz="sm">{what(event)}</Text>
                <Text fz="xs" c="dimmed">
                  {formatDate(event.occurred_at)} · {who(event)}
                </Text>
              </Card>
            ))
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Event</Table.Th>
                    <Table.Th>Details</Table.Th>
                    <Table.Th>By</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {events.data.results.map((event) => (
                    <Table.Tr key={event.id}>
                      <Table.Td>{formatDate(event.occurred_at)}</Table.Td>
                      <Table.Td>{EVENT_LABELS[event.type]}</Table.Td>
                      <Table.Td>{what(event)}</Table.Td>
                      <Table.Td>{who(event)}</Table.Td>
                      <Table.Td style={{ ...TABULAR_FIGURES, textAlign: 'right' }}>{amount(event)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {events.data.count > PAGE_SIZE && (
            <Pagination
              total={Math.ceil(events.data.count / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          )}
        </Stack>
      )}
    </Card>
  );
}
