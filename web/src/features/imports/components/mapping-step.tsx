import { type DateOrder, IMPORT_FIELDS, type ImportRecord, importDateOrder } from '@coverdesk/contract';
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
import { IconAlertTriangle, IconArrowLeft, IconCalendar, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { DateOrderChoice, useAgencyDateOrder } from '../../../components/date-order-choice.js';
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
  const [chosenOrder, setChosenOrder] = useState<DateOrder | null>(record.date_order);
  const agencyOrder = useAgencyDateOrder();
  const save = useSaveImportSettings(record.id);
  const mobile = useDevice() === 'mobile';
  const fields = IMPORT_FIELDS[record.kind];
  const chosen = new Set(columns);
  const missing = fields.filter((field) => field.required && !chosen.has(field.key));
  // The date columns as now chosen, and the order their dates settle (none when each fits both).
  const dates = importDateOrder(record.kind, columns, record.date_hints);
  const dateOrder = chosenOrder ?? dates.order ?? agencyOrder;

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
          {dates.columns.length > 0 && (
            <DatesQuestion
              record={record}
              columns={dates.columns}
              settled={dates.order}
              value={dateOrder}
              onChange={setChosenOrder}
            />
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
                // Shown with the columns: the order the broker saw, whether the file or they settled it.
                date_order: dates.columns.length > 0 ? dateOrder : record.date_order,
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

/** How the file's numeric dates are read: as its values settle it, or asked when they cannot. */
function DatesQuestion({
  record,
  columns,
  settled,
  value,
  onChange,
}: {
  record: ImportRecord;
  columns: number[];
  settled: DateOrder | null;
  value: DateOrder;
  onChange: (order: DateOrder) => void;
}) {
  const names = columns.map((index) => `"${record.headers[index] || `Column ${index + 1}`}"`).join(' and ');
  const hints = columns.map((index) => record.date_hints[index]);
  const example = hints.find((hint) => hint?.reads === 'either')?.example ?? hints[0]?.example ?? '';
  const mixed = hints.some((hint) => hint?.reads === 'mixed');
  const description = mixed
    ? `The dates in ${names} are written both ways. Choose the order most of them follow; the others will be listed as problems.`
    : settled
      ? `Read from your file: one of its dates has a number over 12 in ${settled === 'month_first' ? 'second' : 'first'} place, so its dates are ${settled === 'month_first' ? 'month' : 'day'} first. Change it if that is wrong.`
      : `Every date in ${names} fits both orders, so the file cannot tell. Your agency's usual order is chosen; check it before going on.`;
  const unsure = mixed || !settled;
  return (
    <Alert
      color={unsure ? 'yellow' : 'blue'}
      variant="light"
      icon={<IconCalendar size={18} />}
      title={unsure ? 'Check the date order' : 'Date order'}
    >
      <DateOrderChoice
        label="How are the dates written?"
        description={description}
        value={value}
        onChange={onChange}
        example={example}
      />
    </Alert>
  );
}
