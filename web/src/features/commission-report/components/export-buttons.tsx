import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { errorText } from '../../../lib/error-message.js';
import { type ExportFormat, useExportReport } from '../api.js';

const LABELS: Record<ExportFormat, string> = { pdf: 'Export PDF', csv: 'Export CSV' };
const ICONS = { pdf: IconFileTypePdf, csv: IconFileSpreadsheet };

/**
 * The report as a file, with the filters on screen. A large book takes some seconds to write, so the
 * button shows it is working and the other waits.
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
        loading={exporting.isPending}
        disabled={empty || (busy && !exporting.isPending)}
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
        {LABELS[format]}
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
