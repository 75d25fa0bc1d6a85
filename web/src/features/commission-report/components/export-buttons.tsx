import { Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { ExportButton } from '../../../components/export-button.js';
import { useExportReport } from '../api.js';

/** The report as a PDF or a CSV, with the filters on screen; while one is being made, the other waits. */
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
  const disabled = empty || pdf.isPending || csv.isPending;
  return (
    <Group gap="xs" grow w={{ base: '100%', xs: 'auto' }}>
      <ExportButton
        exporting={pdf}
        query={query}
        label="Export PDF"
        format="PDF"
        icon={IconFileTypePdf}
        disabled={disabled}
      />
      <ExportButton
        exporting={csv}
        query={query}
        label="Export CSV"
        format="CSV"
        icon={IconFileSpreadsheet}
        disabled={disabled}
      />
    </Group>
  );
}
