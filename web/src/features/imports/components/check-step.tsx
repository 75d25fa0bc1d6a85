import {
  IMPORT_FIELDS,
  type ImportPastDue,
  type ImportPastInstalments,
  type ImportPreview,
  type ImportPreviewRow,
  type ImportRecord,
  type ImportRowAction,
} from '@coverdesk/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { useFormatMoney } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { useImportPreview, useSaveImportSettings, useStartImport } from '../api.js';

export const ACTION_LABELS: Record<ImportRowAction, string> = {
  create: 'New',
  update: 'Update',
  skip: 'Skip',
  fail: 'Problem',
};

const ACTION_COLORS: Record<ImportRowAction, string> = {
  create: 'teal',
  update: 'blue',
  skip: 'gray',
  fail: 'red',
};

/** Step 3: the dry run. Every row is checked as the forms check it; nothing is written yet. */
export function CheckStep({ record, onBack }: { record: ImportRecord; onBack: () => void }) {
  const preview = useImportPreview(record.id, true);
  const start = useStartImport(record.id);
  // The past instalments' answer changes no row's fate, so the dry run stands.
  const save = useSaveImportSettings(record.id, { keepPreview: true });
  // Shown as chosen at once; Start waits for the choice to be saved.
  const [past, setPast] = useState<PastChoice>({
    past_instalments: record.past_instalments,
    expired_unpaid: record.expired_unpaid,
  });
  const mobile = useDevice() === 'mobile';
  const touch = mobile ? 44 : undefined;

  if (preview.isPending) {
    return (
      <Stack aria-busy="true" aria-label="Checking the rows">
        <Text c="dimmed">Checking {record.total_rows.toLocaleString('en-US')} rows…</Text>
        <Skeleton height={90} />
        <Skeleton height={240} />
      </Stack>
    );
  }
  if (preview.isError) {
    return (
      <Stack gap="md" align="flex-start">
        <ErrorState
          error={preview.error}
          onRetry={() => preview.refetch()}
          title="The rows could not be checked"
        />
        <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
          Back to columns
        </Button>
      </Stack>
    );
  }
  const result = preview.data;
  const blocked = record.all_or_nothing && result.fail > 0;
  const choose = (changes: Partial<PastChoice>) => {
    const next = { ...past, ...changes };
    setPast(next);
    save.mutate({
      columns: record.columns,
      duplicates: record.duplicates,
      all_or_nothing: record.all_or_nothing,
      date_order: record.date_order,
      ...next,
    });
  };

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label="What the import would do">
        {(['create', 'update', 'skip', 'fail'] as const).map((action) => (
          <Card key={action} withBorder padding="sm">
            <Text fz="sm" c="dimmed">
              {
                {
                  create: 'Would be created',
                  update: 'Would be updated',
                  skip: 'Would be skipped',
                  fail: 'Have problems',
                }[action]
              }
            </Text>
            <Text
              fz="xl"
              fw={700}
              style={TABULAR_FIGURES}
              c={action === 'fail' && result.fail > 0 ? 'red.9' : undefined}
            >
              {result[action].toLocaleString('en-US')}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {blocked && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Nothing would be imported"
        >
          {result.fail === 1 ? '1 row has' : `${result.fail.toLocaleString('en-US')} rows have`} problems and
          the import is set to all or nothing. Fix the file, or go back and untick “All or nothing” to import
          the other rows and get the rows with problems as a file.
        </Alert>
      )}
      {result.past_due.policies > 0 && (
        <PastInstalments
          pastDue={result.past_due}
          choice={past}
          onChoose={choose}
          saving={save.isPending}
          touch={touch}
        />
      )}
      {save.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Not saved">
          {errorText(save.error)}
        </Alert>
      )}
      <Findings result={result} />
      {result.failed_rows.length > 0 && (
        <Card withBorder padding="lg">
          <Title order={2} fz="h4" mb="sm">
            Rows with problems
          </Title>
          <PreviewRows record={record} rows={result.failed_rows} mobile={mobile} label="Rows with problems" />
        </Card>
      )}
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="sm">
          First rows
        </Title>
        <PreviewRows record={record} rows={result.rows} mobile={mobile} label="First rows" />
      </Card>
      {start.isError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="The import could not start"
        >
          {errorText(start.error)}
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={onBack}
          mih={touch}
        >
          Back to columns
        </Button>
        <Button
          leftSection={<IconPlayerPlay size={16} aria-hidden />}
          loading={start.isPending}
          disabled={result.create + result.update === 0 || result.over_limit.length > 0 || save.isPending}
          onClick={() => start.mutate()}
          mih={touch}
        >
          Start import
        </Button>
      </Group>
    </Stack>
  );
}

const PAST_OPTIONS: { value: ImportPastInstalments; label: string; description: string }[] = [
  {
    value: 'paid',
    label: 'Mark paid',
    description: 'Recorded as payments by the import, each on its due date.',
  },
  {
    value: 'unpaid',
    label: 'Leave unpaid',
    description: 'They show as overdue, and overdue reminders go out for them.',
  },
];

interface PastChoice {
  past_instalments: ImportPastInstalments;
  expired_unpaid: boolean;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The question a policy book raises: its instalments due before today that the file says nothing
 * about. Paid by default, since a book brought in is mostly up to date; an ended policy stays paid
 * unless the broker says otherwise too, so it never turns into overdue debt.
 */
function PastInstalments({
  pastDue,
  choice,
  onChoose,
  saving,
  touch,
}: {
  pastDue: ImportPastDue;
  choice: PastChoice;
  onChoose: (changes: Partial<PastChoice>) => void;
  saving: boolean;
  touch: number | undefined;
}) {
  const formatMoney = useFormatMoney();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          Instalments due before today
        </Title>
        <Text fz="sm">
          {count(pastDue.instalments, 'instalment')} of {count(pastDue.policies, 'policy', 'policies')} (
          {formatMoney(pastDue.amount)}) fell due before today, and the file does not say whether they were
          paid.
        </Text>
        <Radio.Group
          value={choice.past_instalments}
          onChange={(value) => onChoose({ past_instalments: value as ImportPastInstalments })}
          label="What should the import do with them?"
        >
          <Stack gap="xs" mt="xs">
            {PAST_OPTIONS.map((option) => (
              <Radio
                key={option.value}
                {...option}
                disabled={saving}
                styles={{ body: { minHeight: touch } }}
              />
            ))}
          </Stack>
        </Radio.Group>
        {choice.past_instalments === 'unpaid' && pastDue.expired_policies > 0 && (
          <Checkbox
            checked={choice.expired_unpaid}
            onChange={(event) => onChoose({ expired_unpaid: event.currentTarget.checked })}
            disabled={saving}
            label={`Leave the ${count(pastDue.expired_policies, 'policy', 'policies')} that already ended unpaid too`}
            description="Otherwise they are marked paid: an ended policy left unpaid is overdue at once."
          />
        )}
      </Stack>
    </Card>
  );
}

/** What the broker should know before anything is written: insurers that would earn nothing, the plan. */
function Findings({ result }: { result: ImportPreview }) {
  const formatMoney = useFormatMoney();
  return (
    <>
      {result.over_limit.map((limit) => (
        <Alert
          key={limit.metric}
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={`${limit.fit.toLocaleString('en-US')} of the ${count(limit.adding, limit.metric.replace(/s$/, ''), limit.metric)} fit your plan`}
        >
          {limit.detail}
        </Alert>
      ))}
      {result.new_insurers.map((insurer) => (
        <Alert
          key={insurer.name}
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={`New insurer ${insurer.name}: no commission rate`}
        >
          Its {count(insurer.policies, 'policy', 'policies')} will earn {formatMoney('0')}. Add a Commission %
          column to the file, or set the insurer's rates after the import.
        </Alert>
      ))}
    </>
  );
}

/** A row's problems, each named by its column's field. */
function problemsOf(record: ImportRecord, row: ImportPreviewRow): string[] {
  const labels = new Map(IMPORT_FIELDS[record.kind].map((field) => [field.key, field.label]));
  return Object.entries(row.errors).map(([field, messages]) =>
    field === 'row' ? messages.join(' ') : `${labels.get(field) ?? field}: ${messages.join(' ')}`,
  );
}

function ActionBadge({ action }: { action: ImportRowAction }) {
  return (
    <Badge color={ACTION_COLORS[action]} variant="light">
      {ACTION_LABELS[action]}
    </Badge>
  );
}

/**
 * The rows as the file has them, with each cell that has a problem marked and its message under
 * it; on a phone, each row as a card of its problems.
 */
function PreviewRows({
  record,
  rows,
  mobile,
  label,
}: {
  record: ImportRecord;
  rows: ImportPreviewRow[];
  mobile: boolean;
  label: string;
}) {
  if (mobile) {
    return (
      <Stack gap="xs">
        {rows.map((row) => (
          <Card key={row.row} withBorder padding="sm">
            <Group justify="space-between">
              <Text fw={600}>Row {row.row}</Text>
              <ActionBadge action={row.action} />
            </Group>
            <Text fz="sm" lineClamp={2}>
              {row.values.filter(Boolean).join(' · ')}
            </Text>
            {problemsOf(record, row).map((problem) => (
              <Text key={problem} fz="sm" c="red.9">
                {problem}
              </Text>
            ))}
            {row.note && (
              <Text fz="sm" c="dimmed">
                {row.note}
              </Text>
            )}
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    // A file of many columns scrolls sideways; the region takes focus so a keyboard can scroll it.
    <Table.ScrollContainer
      type="native"
      minWidth={Math.max(600, 160 * record.headers.length)}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <Table verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Result</Table.Th>
            {record.headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
              <Table.Th key={`${header}-${index}`}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            return (
              <Table.Tr key={row.row}>
                <Table.Td style={TABULAR_FIGURES}>{row.row}</Table.Td>
                <Table.Td>
                  <ActionBadge action={row.action} />
                  {row.note && (
                    <Text fz="xs" c="dimmed">
                      {row.note}
                    </Text>
                  )}
                  {/* Every problem here too: the cell it belongs to may be scrolled out of view. */}
                  {problemsOf(record, row).map((problem) => (
                    <Text key={problem} fz="xs" c="red.9" maw={280}>
                      {problem}
                    </Text>
                  ))}
                </Table.Td>
                {record.headers.map((header, index) => {
                  const field = record.columns[index];
                  const messages = field ? row.errors[field] : undefined;
                  return (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                    <Table.Td key={`${header}-${index}`} bg={messages ? 'red.0' : undefined}>
                      <Text inherit>{row.values[index]}</Text>
                      {messages?.map((message) => (
                        <Text key={message} fz="xs" c="red.9">
                          {message}
                        </Text>
                      ))}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
