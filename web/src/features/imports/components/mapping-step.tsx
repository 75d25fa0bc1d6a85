import { IMPORT_FIELDS, type ImportRecord } from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { errorText } from '../../../lib/error-message.js';
import { useDevice } from '../../../lib/viewport.js';
import { useSaveImportSettings } from '../api.js';
import { KIND_LABELS } from './upload-step.js';

const LEAVE_OUT = '';

/**
 * Step 2: what each column of the file holds, guessed from its header (and the agency's earlier
 * choices), for the broker to correct; what to do with records already in Coverdesk; all or nothing.
 */
export function MappingStep({
  record,
  onChecked,
  onRestart,
}: {
  record: ImportRecord;
  onChecked: () => void;
  onRestart: () => void;
}) {
  const [columns, setColumns] = useState(record.columns);
  const [duplicates, setDuplicates] = useState(record.duplicates);
  const [allOrNothing, setAllOrNothing] = useState(record.all_or_nothing);
  const save = useSaveImportSettings(record.id);
  const mobile = useDevice() === 'mobile';
  const fields = IMPORT_FIELDS[record.kind];
  const chosen = new Set(columns);
  const missing = fields.filter((field) => field.required && !chosen.has(field.key));

  const options = (current: string | null) => [
    { value: LEAVE_OUT, label: 'Leave out' },
    ...fields.map((field) => ({
      value: field.key,
      label: field.required ? `${field.label} (required)` : field.label,
      // A field fills one column; the one already chosen elsewhere is offered only where it is.
      disabled: field.key !== current && chosen.has(field.key),
    })),
  ];
  const choose = (index: number, value: string | null) =>
    setColumns((current) => current.map((field, at) => (at === index ? value || null : field)));
  const examples = (index: number) =>
    record.sample
      .map((row) => row[index] ?? '')
      .filter(Boolean)
      .join(' · ');

  const picker = (index: number, header: string) => (
    <Select
      aria-label={`Field for the column ${header || index + 1}`}
      data={options(columns[index] ?? null)}
      value={columns[index] ?? LEAVE_OUT}
      onChange={(value) => choose(index, value)}
      allowDeselect={false}
      searchable={!mobile}
      w={mobile ? '100%' : 260}
    />
  );

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {KIND_LABELS[record.kind]} from {record.file_name}
          </Title>
          <Text c="dimmed" fz="sm">
            {record.total_rows.toLocaleString('en-US')} rows. Each column below is matched to what it holds in
            Coverdesk; change any that is wrong, and leave out the ones you do not need. Your choices are
            remembered for your next file.
          </Text>
          {mobile ? (
            <Stack gap="xs">
              {record.headers.map((header, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                <Card key={`${header}-${index}`} withBorder padding="sm">
                  <Text fw={600}>{header || `Column ${index + 1}`}</Text>
                  <Text fz="xs" c="dimmed" mb={6} lineClamp={2}>
                    {examples(index) || 'Empty in the first rows'}
                  </Text>
                  {picker(index, header)}
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Column in your file</Table.Th>
                    <Table.Th>First values</Table.Th>
                    <Table.Th>Fills</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {record.headers.map((header, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                    <Table.Tr key={`${header}-${index}`}>
                      <Table.Td fw={600}>{header || `Column ${index + 1}`}</Table.Td>
                      <Table.Td c="dimmed" fz="sm" maw={320}>
                        <Text inherit truncate="end">
                          {examples(index)}
                        </Text>
                      </Table.Td>
                      <Table.Td>{picker(index, header)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {missing.length > 0 && (
            <Alert
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title="Columns still needed"
            >
              Choose a column for: {missing.map((field) => field.label).join(', ')}.
            </Alert>
          )}
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Radio.Group
            label={`${KIND_LABELS[record.kind]} already in Coverdesk`}
            value={duplicates}
            onChange={(value) => setDuplicates(value as typeof duplicates)}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="skip" label="Skip them: keep what Coverdesk has" />
              <Radio value="update" label="Update them with the file's values" />
            </Stack>
          </Radio.Group>
          <Checkbox
            checked={allOrNothing}
            onChange={(event) => setAllOrNothing(event.currentTarget.checked)}
            label="All or nothing"
            description="If any row has a problem, import nothing. Otherwise rows with problems are left out and listed for you to fix."
          />
        </Stack>
      </Card>
      {save.isError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="These choices could not be saved"
        >
          {errorText(save.error)}
        </Alert>
      )}
      <Group justify="space-between">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={onRestart}
          mih={mobile ? 44 : undefined}
        >
          Another file
        </Button>
        <Button
          leftSection={<IconListCheck size={16} aria-hidden />}
          disabled={missing.length > 0}
          loading={save.isPending}
          mih={mobile ? 44 : undefined}
          onClick={() =>
            save.mutate(
              {
                columns,
                duplicates,
                all_or_nothing: allOrNothing,
                // Asked in the check step; kept as the broker answered it there.
                past_instalments: record.past_instalments,
                expired_unpaid: record.expired_unpaid,
              },
              { onSuccess: () => onChecked() },
            )
          }
        >
          Check the rows
        </Button>
      </Group>
    </Stack>
  );
}
