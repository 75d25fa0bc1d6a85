import { Button, Group, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { errorText } from '../../../lib/error-message.js';
import { type ExportFormat, useExportReport } from '../api.js';

const LABELS: Record<ExportFormat, string> = { pdf: 'Export PDF', csv: 'Export CSV' };
const ICONS = { pdf: IconFileTypePdf, csv: IconFileSpreadsheet };

/** Bytes as a broker reads a download's size. */
function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The report as a file, with the filters on screen. A large book takes some seconds to write, so the
 * button says how much of the file has come in, and the other waits.
 */
export function ExportButtons({
  query,
  empty,
}: {
  query: Record<string, string | number>;
  /** Nothing matches: there is no file to make. */
  empty: boolean;
}) {
  const pdf = useExportReport('pdf');
  const csv = useExportReport('csv');
  const busy = pdf.isPending || csv.isPending;

  const button = (format: ExportFormat, exporting: typeof pdf) => {
    const Icon = ICONS[format];
    return (
      <Button
        variant="default"
        leftSection={<Icon size={16} aria-hidden />}
        disabled={empty || busy}
        onClick={() =>
          exporting.mutate(query, {
            onError: (error) =>
              notifications.show({
                color: 'red',
                title: `The ${format.toUpperCase()} could not be made`,
                message: errorText(error),
              }),
          })
        }
        h={{ base: 44, sm: 36 }}
      >
        {exporting.isPending ? (
          <Group gap={6} wrap="nowrap">
            <Loader size={14} aria-hidden />
            <span role="status">
              {exporting.received > 0 ? `Exporting… ${size(exporting.received)}` : 'Preparing…'}
            </span>
          </Group>
        ) : (
          LABELS[format]
        )}
      </Button>
    );
  };

  return (
    <Group gap="xs" grow w={{ base: '100%', xs: 'auto' }}>
      {button('pdf', pdf)}
      {button('csv', csv)}
    </Group>
  );
}
