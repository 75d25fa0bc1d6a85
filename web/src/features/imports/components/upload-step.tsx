import { IMPORT_FIELDS, type ImportKind, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  List,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorText } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';
import { useDevice } from '../../../lib/viewport.js';
import { useUploadImport } from '../api.js';

export const KIND_LABELS: Record<ImportKind, string> = {
  customers: 'Customers',
  policies: 'Policies',
  leads: 'Leads',
};

const WHAT_IT_DOES: Record<ImportKind, string> = {
  customers: 'One row per customer. Customers already in Coverdesk are found by email, phone or ID number.',
  policies:
    'One row per policy, naming its customer, insurer and policy type. Customers, insurers and types that are not in Coverdesk yet are added with the policies; a policy already there is found by its number, insurer and start date. A "Paid up to" date or a "Paid amount" column says what each policy has already paid.',
  leads: 'One row per lead. Leads already in Coverdesk are found by email or phone.',
};

const MB = 1024 * 1024;

/** Step 1: which records, and the file. Nothing is saved to the agency's records until step 4. */
export function UploadStep({
  kind,
  onKind,
  onUploaded,
}: {
  kind: ImportKind;
  onKind: (kind: ImportKind) => void;
  onUploaded: (id: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const upload = useUploadImport();
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const tooBig = file !== null && file.size > MAX_IMPORT_BYTES;
  // The server read this file and said what is wrong with it: the same file again would say the same.
  const refused = upload.error instanceof ApiError && upload.error.status >= 400 && upload.error.status < 500;
  const required = IMPORT_FIELDS[kind].filter((field) => field.required).map((field) => field.label);

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} fz="h4">
          What are you importing?
        </Title>
        <SegmentedControl
          aria-label="Records to import"
          value={kind}
          onChange={(value) => onKind(value as ImportKind)}
          data={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
          fullWidth={touch !== undefined}
          w={touch ? undefined : 'fit-content'}
        />
        <Text c="dimmed" fz="sm">
          {WHAT_IT_DOES[kind]}
        </Text>
        <List fz="sm" c="dimmed" spacing={2}>
          <List.Item>
            A CSV (any delimiter, UTF-8 or Windows-1252) or an Excel XLSX file, up to {MAX_IMPORT_BYTES / MB}{' '}
            MB and {MAX_IMPORT_ROWS.toLocaleString('en-US')} rows, with a header row naming the columns.
          </List.Item>
          {required.length > 0 && <List.Item>Columns it needs: {required.join(', ')}.</List.Item>}
          <List.Item>Dates as 2026-03-01 or day first (01/03/2026).</List.Item>
        </List>
        <FileInput
          label="File"
          description="Choose a CSV or XLSX file"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
          value={file}
          onChange={(next) => {
            setFile(next);
            upload.reset();
          }}
          error={
            tooBig
              ? `This file is larger than ${MAX_IMPORT_BYTES / MB} MB. Split it into smaller files.`
              : undefined
          }
          clearable
          maw={520}
        />
        {upload.isError && (
          <Alert
            role="alert"
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="The file could not be used"
          >
            {errorText(upload.error)}
          </Alert>
        )}
        <Group>
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            disabled={!file || tooBig || refused}
            loading={upload.isPending}
            mih={touch}
            onClick={() =>
              file && upload.mutate({ kind, file }, { onSuccess: (record) => onUploaded(record.id) })
            }
          >
            Upload and map columns
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
