import { Button, Loader, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useFileExport } from '../lib/use-file-export.js';
import { useDevice } from '../lib/viewport.js';
import { ExportProgress, startExport } from './export-button.js';

const FORMATS = [
  { format: 'xlsx', label: 'Excel (.xlsx)', name: 'Excel file', icon: IconFileSpreadsheet },
  { format: 'csv', label: 'CSV (.csv)', name: 'CSV', icon: IconFileTypeCsv },
] as const;

/**
 * A list's Export menu: the rows its search, filters and sort show, every page of them, as an Excel
 * file or a CSV. On a phone it is an icon button beside the search, a full touch target.
 */
export function ExportMenu({
  path,
  list,
  query,
  disabled,
}: {
  /** The list's export address, `/customers/export/`. */
  path: string;
  /** The file's name if the server gives none, `customers`. */
  list: string;
  /** The list's query without paging (`ListParams.exportQuery`). */
  query: Record<string, string | number>;
  /** Nothing to export: the list is empty or still loading. */
  disabled: boolean;
}) {
  const exporting = useFileExport(path, (wanted) => `${list}.${wanted.format}`);
  const mobile = useDevice() === 'mobile';
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        {mobile ? (
          // Beside the search there is room for the icon alone; it is named for screen readers.
          <Button
            variant="default"
            aria-label="Export"
            disabled={disabled || exporting.isPending}
            h={44}
            w={44}
            px={0}
          >
            {exporting.isPending ? (
              <Loader size={16} role="status" aria-label="Exporting" />
            ) : (
              <IconDownload size={18} aria-hidden />
            )}
          </Button>
        ) : (
          <Button
            variant="default"
            disabled={disabled || exporting.isPending}
            leftSection={<IconDownload size={16} aria-hidden />}
            rightSection={exporting.isPending ? null : <IconChevronDown size={14} aria-hidden />}
          >
            {exporting.isPending ? <ExportProgress exporting={exporting} /> : 'Export'}
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map(({ format, label, name, icon: Icon }) => (
          <Menu.Item
            key={format}
            leftSection={<Icon size={16} aria-hidden />}
            onClick={() => startExport(exporting, { ...query, format }, name)}
            mih={mobile ? 44 : undefined}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
