import { Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatMoment } from '../operations-format.js';

/** When the figures on screen were read, and the button that reads them again. */
export function RefreshBar(props: {
  checkedAt: string | undefined;
  refreshing: boolean;
  onRefresh(): void;
  /** What sits at the left of the bar (a window switch). */
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" gap="sm">
      <Group gap="sm">{props.children}</Group>
      <Group gap="sm">
        {props.checkedAt && (
          <Text fz="sm" c="dimmed" aria-live="polite">
            Checked {formatMoment(props.checkedAt)}
          </Text>
        )}
        <Button
          variant="default"
          mih={44}
          leftSection={<IconRefresh size={16} />}
          loading={props.refreshing}
          onClick={props.onRefresh}
        >
          Refresh
        </Button>
      </Group>
    </Group>
  );
}
