import {
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  type Lead,
  type LeadStatus,
  MAX_PAGE_SIZE,
} from '@coverdesk/contract';
import { Badge, Card, Group, Paper, ScrollArea, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type DragEvent, useState } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useLeadColumn } from '../api.js';
import { LeadCardBody } from './lead-card.js';
import { MoveMenu, useLeadMover } from './lead-mover.js';
import { LEAD_STATUS_COLORS } from './lead-status-badge.js';

/** What a dragged card carries: the lead, and the column it left. */
const DRAG_TYPE = 'application/x-coverdesk-lead';

/**
 * The pipeline as columns by status. On a desk a card is dragged to another column to move the
 * lead; everywhere its "Move to…" menu does the same from the keyboard or a phone, where the
 * columns stack one under the other.
 */
export function LeadBoard({ filters }: { filters: Record<string, string | number> }) {
  const stacked = useDevice() !== 'desktop';
  const { move, dialog } = useLeadMover();
  const columns = (
    <>
      {LEAD_STATUSES.map((status) => (
        <BoardColumn key={status} status={status} filters={filters} stacked={stacked} onMove={move} />
      ))}
    </>
  );
  return (
    <>
      {stacked ? (
        <Stack gap="md">{columns}</Stack>
      ) : (
        <ScrollArea type="auto" offsetScrollbars>
          <Group align="flex-start" wrap="nowrap" gap="sm" pb="sm">
            {columns}
          </Group>
        </ScrollArea>
      )}
      {dialog}
    </>
  );
}

function BoardColumn(props: {
  status: LeadStatus;
  filters: Record<string, string | number>;
  stacked: boolean;
  onMove(lead: Lead, status: LeadStatus): void;
}) {
  const { status } = props;
  const column = useLeadColumn(status, props.filters, true);
  const [over, setOver] = useState(false);
  const label = LEAD_STATUS_LABELS[status];
  const count = column.data?.count ?? 0;
  const headingId = `board-column-${status}`;

  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(DRAG_TYPE);
  const onDrop = (event: DragEvent) => {
    setOver(false);
    if (!accepts(event)) return;
    event.preventDefault();
    const lead = JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as Lead;
    props.onMove(lead, status);
  };

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      data-status={status}
      withBorder
      radius="md"
      p="xs"
      bg={over ? 'var(--mantine-color-blue-light)' : 'var(--mantine-color-gray-0)'}
      w={props.stacked ? '100%' : undefined}
      // Six columns share a desk's width and scroll sideways only when it is too narrow for them.
      miw={props.stacked ? undefined : 170}
      style={{
        borderTop: `3px solid var(--mantine-color-${LEAD_STATUS_COLORS[status]}-6)`,
        flex: props.stacked ? undefined : '1 1 0',
      }}
      onDragOver={(event: DragEvent) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <Group justify="space-between" mb="xs" px={4}>
        <Title order={2} fz="sm" id={headingId}>
          {label}
        </Title>
        <Badge variant="light" color="gray" aria-label={`${count} ${count === 1 ? 'lead' : 'leads'}`}>
          {count}
        </Badge>
      </Group>
      {column.isError && !column.data ? (
        <ErrorState error={column.error} onRetry={() => void column.refetch()} />
      ) : column.isPending ? (
        <Stack gap="xs">
          <Skeleton h={64} />
          <Skeleton h={64} />
        </Stack>
      ) : (
        <Stack gap="xs" mih={props.stacked ? undefined : 120} aria-busy={column.isFetching}>
          {column.data.results.length === 0 && (
            <Text fz="sm" c="dimmed" ta="center" py="sm">
              {props.stacked ? `No leads ${label.toLowerCase()}.` : 'Drop a lead here'}
            </Text>
          )}
          {column.data.results.map((lead) => (
            <BoardCard key={lead.id} lead={lead} draggable={!props.stacked} onMove={props.onMove} />
          ))}
          {count > MAX_PAGE_SIZE && (
            <Text fz="xs" c="dimmed" ta="center">
              The first {MAX_PAGE_SIZE} of {count}, next follow-up first. The table shows them all.
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function BoardCard(props: { lead: Lead; draggable: boolean; onMove(lead: Lead, status: LeadStatus): void }) {
  const { lead } = props;
  const [dragging, setDragging] = useState(false);
  // Moving a lead along is work on the book: a role that reads sees the board without the moves.
  const canWork = useCan('work');
  const draggable = props.draggable && canWork;
  return (
    <Card
      withBorder
      padding="xs"
      radius="sm"
      data-lead={lead.id}
      draggable={draggable}
      style={{ cursor: draggable ? 'grab' : undefined, opacity: dragging ? 0.5 : 1 }}
      onDragStart={(event: DragEvent) => {
        event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(lead));
        event.dataTransfer.effectAllowed = 'move';
        setDragging(true);
      }}
      onDragEnd={() => setDragging(false)}
    >
      <LeadCardBody lead={lead} link />
      {canWork && (
        <Group justify="flex-end" mt={6}>
          <MoveMenu lead={lead} onMove={(status) => props.onMove(lead, status)} />
        </Group>
      )}
    </Card>
  );
}
