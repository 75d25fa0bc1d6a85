import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText, fieldErrors } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';

/**
 * Asks an admin to confirm an action and say why: the reason goes to the audit log with it. Fields
 * of the action's own (days, a plan) come as children; the API's answer to them shows beside them
 * through `fieldError`, anything else above the buttons.
 */
export function ReasonDialog(props: {
  opened: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Red for what takes something away (disable, cancel, revoke). */
  destructive?: boolean;
  busy: boolean;
  error: unknown;
  children?: ReactNode;
  onConfirm(reason: string): void;
  onClose(): void;
}) {
  const [reason, setReason] = useState('');
  const [blank, setBlank] = useState(false);
  // The API's answer to an earlier opening's confirm is not this one's: errors wait for a confirm.
  const [confirmed, setConfirmed] = useState(false);
  // Each opening starts with an empty reason.
  useEffect(() => {
    if (props.opened) {
      setReason('');
      setBlank(false);
      setConfirmed(false);
    }
  }, [props.opened]);

  const error = confirmed ? props.error : null;
  const fields = error instanceof ApiError && error.status === 400 ? fieldErrors(error.body) : {};
  const otherError = error && Object.keys(fields).length === 0 ? errorText(error) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setConfirmed(true);
    if (!reason.trim()) {
      setBlank(true);
      return;
    }
    props.onConfirm(reason.trim());
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm">{props.description}</Text>
          {props.children}
          <Textarea
            label="Reason"
            description="Kept in the audit log with this action."
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setBlank(false);
            }}
            error={blank ? 'Enter a reason (kept in the audit log).' : fields.reason}
            data-autofocus
          />
          <FormError message={otherError} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color={props.destructive ? 'red' : undefined} loading={props.busy}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The API's message for one of the action's own fields, shown beside it. */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError && error.status === 400 ? fieldErrors(error.body)[field] : undefined;
}
