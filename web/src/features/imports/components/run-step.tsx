import type { ImportRecord } from '@coverdesk/contract';
import { Alert, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconDownload,
  IconFileImport,
  IconSettings,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorText } from '../../../lib/error-message.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useFileExport } from '../../../lib/use-file-export.js';
import { useDevice } from '../../../lib/viewport.js';

const LIST_PATHS = { customers: '/customers', policies: '/policies', leads: '/leads' } as const;

const count = (value: number) => value.toLocaleString('en-US');

/** Step 4: the import running in the background, then what it did. */
export function RunStep({
  record,
  onAnother,
  onColumns,
}: {
  record: ImportRecord;
  onAnother: () => void;
  onColumns: () => void;
}) {
  const failedRows = useFileExport(
    `/imports/${record.id}/failures/`,
    `${record.kind}-import-failed-rows.csv`,
  );
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const running = record.status === 'queued' || record.status === 'running';
  const percent = record.total_rows > 0 ? Math.round((record.processed_rows / record.total_rows) * 100) : 0;
  const saving = record.status === 'running' && record.processed_rows >= record.total_rows;

  const download = (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={failedRows.isPending}
      onClick={() => failedRows.mutate({})}
      mih={touch}
    >
      Download failed rows
    </Button>
  );

  const another = (
    <Button
      variant="subtle"
      leftSection={<IconFileImport size={16} aria-hidden />}
      onClick={onAnother}
      mih={touch}
    >
      Import another file
    </Button>
  );
  const downloadError = failedRows.isError && <Text c="red.9">{errorText(failedRows.error)}</Text>;

  if (running) {
    const label =
      record.status === 'queued' ? 'Waiting to start…' : saving ? 'Saving…' : 'Checking and matching rows…';
    return (
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            Importing {record.file_name}
          </Title>
          {/* Waiting and saving have no count to show: a full, moving bar says the work goes on. */}
          <Progress
            value={record.status === 'queued' || saving ? 100 : Math.max(percent, 2)}
            striped
            animated
            size="lg"
            aria-label="Import progress"
          />
          <Group justify="space-between">
            <Text fz="sm">{label}</Text>
            <Text fz="sm" c="dimmed" style={TABULAR_FIGURES}>
              {count(record.processed_rows)} of {count(record.total_rows)} rows
            </Text>
          </Group>
          <Text fz="sm" c="dimmed">
            The import runs on the server: you can leave this page and come back. Nothing is saved until every
            row is done.
          </Text>
        </Stack>
      </Card>
    );
  }

  if (record.status === 'failed') {
    return (
      <Stack gap="md">
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Nothing was imported"
        >
          {record.detail}
        </Alert>
        <Group>
          {record.failed > 0 && download}
          <Button
            variant="default"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={onColumns}
            mih={touch}
          >
            Change the columns or options
          </Button>
          {another}
        </Group>
        {downloadError}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title="Import finished">
        {record.file_name}: {count(record.total_rows)} rows.
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="What the import did">
        {(
          [
            ['Created', record.created],
            ['Updated', record.updated],
            ['Skipped', record.skipped],
            ['Failed', record.failed],
          ] as const
        ).map(([label, value]) => (
          <Card key={label} withBorder padding="sm">
            <Text fz="sm" c="dimmed">
              {label}
            </Text>
            <Text
              fz="xl"
              fw={700}
              style={TABULAR_FIGURES}
              c={label === 'Failed' && value > 0 ? 'red.9' : undefined}
            >
              {count(value)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group>
        <Button component={Link} to={LIST_PATHS[record.kind]} mih={touch}>
          See the {record.kind}
        </Button>
        {record.failed > 0 && download}
        {another}
      </Group>
      {downloadError}
    </Stack>
  );
}
