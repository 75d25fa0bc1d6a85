import { Button, Group, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ComponentType } from 'react';
import { errorText } from '../lib/error-message.js';
import type { FileExport } from '../lib/use-file-export.js';

/** Bytes as a broker reads a download's size. */
function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** While a file comes in, how much has arrived, announced to screen readers. */
export function ExportProgress({ exporting }: { exporting: FileExport }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Loader size={14} aria-hidden />
      <span role="status">
        {exporting.received > 0 ? `Exporting… ${size(exporting.received)}` : 'Preparing…'}
      </span>
    </Group>
  );
}

/** Makes the file with the query, saying so when it cannot be made. */
export function startExport(exporting: FileExport, query: Record<string, string | number>, format: string) {
  exporting.mutate(query, {
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: `The ${format} could not be made`,
        message: errorText(error),
      }),
  });
}

/**
 * A button that makes a file with the filters on screen. A large one takes some seconds, so while
 * it comes in the button says how much has arrived.
 */
export function ExportButton({
  exporting,
  query,
  label,
  format,
  icon: Icon,
  disabled,
  'aria-label': ariaLabel,
}: {
  exporting: FileExport;
  query: Record<string, string | number>;
  label: string;
  /** What the file is, for the message when it cannot be made ("CSV"). */
  format: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  disabled: boolean;
  /** Names the file when several buttons share a label ("Dana's statement as PDF"). */
  'aria-label'?: string;
}) {
  return (
    <Button
      variant="default"
      leftSection={<Icon size={16} aria-hidden />}
      disabled={disabled}
      aria-label={ariaLabel}
      onClick={() => startExport(exporting, query, format)}
      h={{ base: 44, sm: 36 }}
    >
      {exporting.isPending ? <ExportProgress exporting={exporting} /> : label}
    </Button>
  );
}
