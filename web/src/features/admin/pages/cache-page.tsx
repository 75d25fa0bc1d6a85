import type { ServerCache } from '@coverdesk/contract';
import { Alert, Button, Card, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDatabase, IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DetailRow } from '../../../components/detail-figures.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { RefreshBar } from '../components/refresh-bar.js';
import { useClearCache, useServerCaches } from '../operations-api.js';
import { formatCount, formatMoment, formatRate } from '../operations-format.js';

/** The caches this server instance keeps in memory, how well they serve, and a way to empty one. */
export function Component() {
  const query = useServerCaches();
  const [clearing, setClearing] = useState<ServerCache | null>(null);
  const clear = useClearCache();
  const list = query.data;

  const confirmClear = () => {
    if (!clearing) return;
    clear.mutate(clearing.name, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `The ${clearing.name} cache is empty.` });
        setClearing(null);
      },
    });
  };

  return (
    <Stack gap="md">
      <RefreshBar
        checkedAt={undefined}
        refreshing={query.isFetching}
        onRefresh={() => void query.refetch()}
      />
      {query.isError && !list ? (
        <ErrorState
          error={query.error}
          onRetry={() => void query.refetch()}
          title="The caches could not be read"
        />
      ) : !list ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading">
          {[1, 2, 3, 4].map((row) => (
            <Skeleton key={row} h={56} radius="sm" />
          ))}
        </Stack>
      ) : (
        <>
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
            Each server instance keeps caches of its own in memory; these are this instance's, counted since
            it started on {formatMoment(list.instance_started_at)} or since the cache was last cleared.
            Clearing one is safe: the next requests fill it again, a little slower at first.
          </Alert>
          {list.caches.length === 0 ? (
            <EmptyState icon={IconDatabase} title="No caches">
              This server keeps no caches.
            </EmptyState>
          ) : (
            <CacheList
              caches={list.caches}
              onClear={(cache) => {
                clear.reset();
                setClearing(cache);
              }}
            />
          )}
        </>
      )}
      <ConfirmDialog
        opened={clearing !== null}
        title={`Clear the ${clearing?.name ?? ''} cache?`}
        confirmLabel="Clear cache"
        busy={clear.isPending}
        error={clear.isError ? errorText(clear.error) : null}
        onConfirm={confirmClear}
        onClose={() => setClearing(null)}
      >
        {clearing?.entries === 1
          ? 'Its one entry is'
          : `Its ${formatCount(clearing?.entries ?? 0)} entries are`}{' '}
        dropped and its hit counts start again. The clear is recorded in the audit log under your name.
      </ConfirmDialog>
    </Stack>
  );
}

function ClearButton({ cache, onClear }: { cache: ServerCache; onClear(cache: ServerCache): void }) {
  return (
    <Button
      variant="default"
      color="red"
      size="sm"
      mih={44}
      leftSection={<IconTrash size={16} />}
      onClick={() => onClear(cache)}
      aria-label={`Clear the ${cache.name} cache`}
    >
      Clear
    </Button>
  );
}

function CacheList({ caches, onClear }: { caches: ServerCache[]; onClear(cache: ServerCache): void }) {
  const device = useDevice();
  if (device === 'mobile') {
    return (
      <Stack gap="xs">
        {caches.map((cache) => (
          <Card key={cache.name} withBorder padding="sm">
            <Text fw={600}>{cache.name}</Text>
            <Text fz="sm" c="dimmed" mb="xs">
              {cache.description}
            </Text>
            <DetailRow label="Entries">
              {formatCount(cache.entries)} of {formatCount(cache.capacity)}
            </DetailRow>
            <DetailRow label="Hits / misses">
              {formatCount(cache.hits)} / {formatCount(cache.misses)}
            </DetailRow>
            <DetailRow label="Hit rate">{formatRate(cache.hit_rate)}</DetailRow>
            <Group justify="flex-end" mt="xs">
              <ClearButton cache={cache} onClear={onClear} />
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }
  const numeric = { ta: 'right', style: { ...TABULAR_FIGURES, whiteSpace: 'nowrap' } } as const;
  return (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" horizontalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Cache</Table.Th>
              <Table.Th ta="right">Entries</Table.Th>
              <Table.Th ta="right">Hits</Table.Th>
              <Table.Th ta="right">Misses</Table.Th>
              <Table.Th ta="right">Hit rate</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {caches.map((cache) => (
              <Table.Tr key={cache.name}>
                <Table.Td maw={420}>
                  <Text fw={600} fz="sm">
                    {cache.name}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {cache.description}
                  </Text>
                </Table.Td>
                <Table.Td {...numeric}>
                  {formatCount(cache.entries)} of {formatCount(cache.capacity)}
                </Table.Td>
                <Table.Td {...numeric}>{formatCount(cache.hits)}</Table.Td>
                <Table.Td {...numeric}>{formatCount(cache.misses)}</Table.Td>
                <Table.Td {...numeric}>{formatRate(cache.hit_rate)}</Table.Td>
                <Table.Td ta="right">
                  <ClearButton cache={cache} onClear={onClear} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
