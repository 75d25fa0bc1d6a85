import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  type TicketCategory,
  ticketBody,
} from '@coverdesk/contract';
import { Button, Card, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { useOpenTicket } from '../api.js';
import { AttachmentInput, attachmentProblem } from '../components/attachment-input.js';

const CATEGORY_OPTIONS = TICKET_CATEGORIES.map((value) => ({ value, label: TICKET_CATEGORY_LABELS[value] }));

interface TicketValues extends Record<string, unknown> {
  subject: string;
  category: TicketCategory | '';
  message: string;
  attachment: File | null;
}

const validateText = zodValidate(ticketBody);

/** /support/new: a question for Coverdesk support, with a screenshot or a file if it helps. */
export function Component() {
  const navigate = useNavigate();
  const open = useOpenTicket();
  const form = useForm<TicketValues>({
    initialValues: { subject: '', category: '', message: '', attachment: null },
    validate: (values) => {
      const problem = attachmentProblem(values.attachment);
      return { ...validateText(values), ...(problem ? { attachment: problem } : {}) };
    },
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async ({ attachment, ...values }) => {
    const ticket = await open.mutateAsync({ ...ticketBody.parse(values), attachment });
    notifications.show({ color: 'green', message: 'Ticket sent. We will answer here and by email.' });
    navigate(`/support/${ticket.id}`);
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Card withBorder padding="lg" maw={760}>
        <Stack gap="sm">
          <Title order={2} fz="h4">
            New ticket
          </Title>
          <Text fz="sm" c="gray.7">
            Tell us what happened or what you need. Everyone in your agency can follow the ticket; we reply
            here and email you.
          </Text>
          <TextInput label="Subject" required maxLength={200} {...form.getInputProps('subject')} />
          <Select
            label="Category"
            required
            placeholder="What it is about"
            data={CATEGORY_OPTIONS}
            {...form.getInputProps('category')}
          />
          <Textarea
            label="Message"
            required
            autosize
            minRows={6}
            maxRows={16}
            description="What you did, what you expected and what happened instead, with policy or customer numbers if they help."
            {...form.getInputProps('message')}
          />
          <AttachmentInput
            value={form.values.attachment}
            onChange={(file) => form.setFieldValue('attachment', file)}
            error={form.errors.attachment as string | undefined}
          />
          <FormError message={error} />
          <Group justify="space-between" gap="sm">
            <BackLink to="/support">Back to tickets</BackLink>
            <Button
              type="submit"
              loading={submitting}
              leftSection={<IconSend size={16} aria-hidden />}
              mih={44}
            >
              Send ticket
            </Button>
          </Group>
        </Stack>
      </Card>
    </form>
  );
}
