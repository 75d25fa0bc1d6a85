import { ticketReplyBody } from '@coverdesk/contract';
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { AttachmentInput, attachmentProblem } from './attachment-input.js';

interface ReplyValues extends Record<string, unknown> {
  message: string;
  attachment: File | null;
}

const validateText = zodValidate(ticketReplyBody);

/** The box under a thread: a message and an optional file, sent with `send`. */
export function ReplyForm(props: {
  send(values: { message: string; attachment: File | null }): Promise<unknown>;
  /** What the box says about what happens on sending ("The broker is emailed your answer."). */
  description: string;
  sentMessage: string;
}) {
  const form = useForm<ReplyValues>({
    initialValues: { message: '', attachment: null },
    validate: (values) => {
      const problem = attachmentProblem(values.attachment);
      return { ...validateText(values), ...(problem ? { attachment: problem } : {}) };
    },
  });
  // Said beside the button, not in a toast: on a phone a toast would cover the box just written in.
  const [sent, setSent] = useState(false);
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    await props.send(values);
    form.reset();
    setSent(true);
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="reply-title">
      <form onSubmit={onSubmit} noValidate onChange={() => setSent(false)}>
        <Stack gap="sm">
          <Title order={2} fz="h4" id="reply-title">
            Reply
          </Title>
          <Textarea
            label="Message"
            description={props.description}
            required
            autosize
            minRows={4}
            maxRows={14}
            {...form.getInputProps('message')}
          />
          <AttachmentInput
            value={form.values.attachment}
            onChange={(file) => form.setFieldValue('attachment', file)}
            error={form.errors.attachment as string | undefined}
          />
          <FormError message={error} />
          <Group justify="flex-end" wrap="wrap-reverse">
            <Text fz="sm" role="status">
              {sent && (
                <>
                  <IconCircleCheck
                    size={16}
                    aria-hidden
                    color="var(--mantine-color-green-8)"
                    style={{ verticalAlign: 'text-bottom' }}
                  />{' '}
                  {props.sentMessage}
                </>
              )}
            </Text>
            <Button
              type="submit"
              loading={submitting}
              leftSection={<IconSend size={16} aria-hidden />}
              mih={44}
            >
              Send reply
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
