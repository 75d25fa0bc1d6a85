import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormError } from './form-error.js';

/** Asks before something that cannot be undone, naming what it acts on. */
export function ConfirmDialog(props: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  /** What else the dialog offers (deactivate instead of delete). */
  alternative?: ReactNode;
  /** When the action turned out to be impossible and only the alternative remains. */
  hideConfirm?: boolean;
  /** When the action cannot be taken yet: the button stays in view, and the text says why. */
  confirmDisabled?: boolean;
  /** The confirm button's colour: red, unless what it does can be changed back. */
  confirmColor?: string;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fz="sm">{props.children}</Text>
        <FormError message={props.error ?? null} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          {props.alternative}
          {!props.hideConfirm && (
            <Button
              color={props.confirmColor ?? 'red'}
              loading={props.busy}
              disabled={props.confirmDisabled}
              onClick={props.onConfirm}
            >
              {props.confirmLabel}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
