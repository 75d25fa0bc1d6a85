import { type DateOrder, STATEMENT_FIELDS } from '@coverdesk/contract';
import { Alert, Button, FileInput, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DateOrderChoice, useAgencyDateOrder } from '../../../components/date-order-choice.js';
import { fieldErrors } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { useDevice } from '../../../lib/viewport.js';
import { useUploadStatement } from '../api.js';

const LEAVE_OUT = '';
/** The example date the API's question quotes. */
const NUMERIC_DATE_IN = /\d{1,2}[./-]\d{1,2}[./-]\d{4}/;

/** The columns the API could not tell: each header with its guess, for the broker to choose. */
interface Unmapped {
  headers: string[];
  columns: (string | null)[];
}

function unmappedOf(error: unknown): Unmapped | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as { headers?: unknown; columns?: unknown };
  if (!Array.isArray(body.headers) || !Array.isArray(body.columns)) return null;
  return { headers: body.headers as string[], columns: body.columns as (string | null)[] };
}

/** Upload an insurer's statement: the insurer, date, total and file; the columns when not told. */
export function UploadStatementModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const mobile = useDevice() === 'mobile';
  const insurers = useInsurerChoices(opened);
  const upload = useUploadStatement();
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [date, setDate] = useState('');
  const [total, setTotal] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<Unmapped | null>(null);
  // Asked when the file's dates fit both orders: the API's sentence, and the broker's answer.
  const [datesAsked, setDatesAsked] = useState<string | null>(null);
  const agencyOrder = useAgencyDateOrder();
  const [dateOrder, setDateOrder] = useState<DateOrder>(agencyOrder);

  const { date_order: dateQuestion, ...errors } =
    upload.error instanceof ApiError && upload.error.status === 400 ? fieldErrors(upload.error.body) : {};
  const duplicate = upload.error instanceof ApiError && upload.error.status === 409;
  const otherError =
    upload.isError &&
    !duplicate &&
    !dateQuestion &&
    Object.keys(errors).length === 0 &&
    !unmappedOf(upload.error)
      ? upload.error.message
      : null;

  const send = () => {
    if (!file) return;
    const columns = mapping
      ? Object.fromEntries(mapping.headers.map((header, index) => [header, mapping.columns[index] ?? null]))
      : undefined;
    upload.mutate(
      {
        file,
        company_id: companyId ?? '',
        statement_date: date,
        total_amount: total,
        columns,
        date_order: datesAsked ? dateOrder : undefined,
      },
      {
        onSuccess: (statement) => {
          onClose();
          navigate(`/commission-statements/${statement.id}`);
        },
        onError: (error) => {
          const unmapped = unmappedOf(error);
          if (unmapped) setMapping(unmapped);
          const asked = error instanceof ApiError ? fieldErrors(error.body).date_order : undefined;
          if (asked) setDatesAsked(asked);
        },
      },
    );
  };
  const chosen = new Set(mapping?.columns ?? []);
  const needed = [
    !chosen.has('commission') && 'Commission',
    !chosen.has('policy_number') && !chosen.has('insured_name') && 'Policy number (or Insured)',
  ].filter(Boolean);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Upload a statement"
      size={mapping ? 'xl' : 'md'}
      fullScreen={mobile}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Select
          label="Insurer"
          placeholder="Choose the insurer"
          required
          searchable
          data={(insurers.data ?? []).map((insurer) => ({ value: insurer.id, label: insurer.name }))}
          value={companyId}
          onChange={setCompanyId}
          error={errors.company_id}
        />
        <TextInput
          label="Statement date"
          type="date"
          required
          value={date}
          onChange={(event) => setDate(event.currentTarget.value)}
          error={errors.statement_date}
        />
        <TextInput
          label="Total amount"
          description="What the insurer says it pays in all, as on the statement"
          required
          inputMode="decimal"
          value={total}
          onChange={(event) => setTotal(event.currentTarget.value)}
          error={errors.total_amount}
        />
        <FileInput
          label="Statement file"
          description="The insurer's CSV or XLSX file"
          required
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
          value={file}
          onChange={(next) => {
            setFile(next);
            setMapping(null);
            setDatesAsked(null);
            upload.reset();
          }}
          error={errors.file}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the file' }}
        />
        {mapping && (
          <Stack gap="xs">
            <Alert
              color="yellow"
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              title="Which column holds what?"
            >
              The file's columns could not all be told from their headers. Choose what each holds; your
              choices are remembered for this insurer.
            </Alert>
            <Table verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Column in the file</Table.Th>
                  <Table.Th>Holds</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {mapping.headers.map((header, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file
                  <Table.Tr key={`${header}-${index}`}>
                    <Table.Td fw={600}>{header || `Column ${index + 1}`}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Field for the column ${header || index + 1}`}
                        allowDeselect={false}
                        value={mapping.columns[index] ?? LEAVE_OUT}
                        onChange={(value) =>
                          setMapping({
                            ...mapping,
                            columns: mapping.columns.map((field, at) =>
                              at === index ? value || null : field,
                            ),
                          })
                        }
                        data={[
                          { value: LEAVE_OUT, label: 'Leave out' },
                          ...STATEMENT_FIELDS.map((field) => ({
                            value: field.key,
                            label: field.label,
                            disabled: field.key !== mapping.columns[index] && chosen.has(field.key),
                          })),
                        ]}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {needed.length > 0 && (
              <Text fz="sm" c="red.8">
                Choose a column for: {needed.join(', ')}.
              </Text>
            )}
          </Stack>
        )}
        {datesAsked && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
            <DateOrderChoice
              label="How are the statement's dates written?"
              description={datesAsked}
              value={dateOrder}
              onChange={setDateOrder}
              example={NUMERIC_DATE_IN.exec(datesAsked)?.[0] ?? ''}
            />
          </Alert>
        )}
        {duplicate && (
          <Alert
            role="alert"
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="Already uploaded"
          >
            {upload.error?.message}
          </Alert>
        )}
        {otherError && (
          <Alert
            role="alert"
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="The statement could not be read"
          >
            {otherError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            disabled={!file || !companyId || (mapping !== null && needed.length > 0)}
            loading={upload.isPending}
            onClick={send}
          >
            {mapping ? 'Upload with these columns' : datesAsked ? 'Upload with this date order' : 'Upload'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
