import { type ContactMessageBody, contactMessageBody } from '@coverdesk/contract';
import {
  Anchor,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { IconCircleCheck, IconClock, IconMail } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { TryDemoButton } from '../../../components/try-demo-button.js';
import { api } from '../../../lib/api-client.js';
import { useFormSubmit } from '../../../lib/form.js';
import { usePublicSettings } from '../../../lib/public-settings.js';

const SUPPORT_EMAIL = 'support@coverdesk.app';
const MESSAGE_MAX = 5000;

type ContactValues = Required<ContactMessageBody>;

const EMPTY: ContactValues = { name: '', email: '', company: '', subject: '', message: '' };

/** The API's own schema, so the browser rejects exactly what the server would. */
function validate(values: ContactValues): FormErrors {
  const result = contactMessageBody.safeParse(values);
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

function ContactDetails() {
  const { demo_available: demoAvailable } = usePublicSettings();
  return (
    <Stack gap="lg">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
          <IconMail size={22} />
        </ThemeIcon>
        <div>
          <Title order={2} fz="lg">
            Email
          </Title>
          {/* On its own line, so it gets a full-size touch target rather than an inline link's. */}
          <Anchor href={`mailto:${SUPPORT_EMAIL}`} display="inline-block" py={10} fw={600}>
            {SUPPORT_EMAIL}
          </Anchor>
        </div>
      </Group>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
          <IconClock size={22} />
        </ThemeIcon>
        <div>
          <Title order={2} fz="lg">
            When we answer
          </Title>
          <Text c="gray.7">Usually within one business day, by email.</Text>
        </div>
      </Group>
      {demoAvailable && (
        <Card withBorder padding="lg" radius="md" bg="gray.0">
          <Stack gap="sm" align="flex-start">
            <Title order={2} fz="lg">
              Just looking?
            </Title>
            <Text c="gray.7">Open the sample agency and click around. No account needed.</Text>
            <TryDemoButton size="md" mih={44} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

/** `/contact`: a message to the Coverdesk team, checked here with the same rules as the API. */
export function Component() {
  const [sent, setSent] = useState(false);
  const sentHeading = useRef<HTMLHeadingElement>(null);
  // On a phone the form is long; moving focus brings the confirmation into view and reads it out.
  useEffect(() => {
    if (sent) sentHeading.current?.focus();
  }, [sent]);
  const form = useForm<ContactValues>({ mode: 'controlled', initialValues: EMPTY, validate });
  const {
    onSubmit,
    error: sendError,
    submitting,
  } = useFormSubmit(form, async (values) => {
    await api.post('/contact/', values);
    form.reset();
    setSent(true);
  });

  const inputStyles = { input: { minHeight: 44 } };

  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="xl">
        <Stack gap="md" maw={720}>
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Contact us
          </Title>
          <Text fz="lg">
            A question about plans, running Coverdesk on your own server, or something that does not work as
            it should? Send us a message and a person will answer.
          </Text>
        </Stack>

        <Grid gap={{ base: 'xl', md: 48 }}>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Card withBorder padding="xl" radius="lg">
              {sent ? (
                <Stack gap="md" align="flex-start" role="status">
                  <ThemeIcon size={48} radius="xl" color="teal" variant="light" aria-hidden>
                    <IconCircleCheck size={28} />
                  </ThemeIcon>
                  <Title order={2} fz="h3" ref={sentHeading} tabIndex={-1}>
                    Message sent
                  </Title>
                  <Text>Thank you. We have your message and will answer by email.</Text>
                  <Button variant="default" mih={44} onClick={() => setSent(false)}>
                    Send another message
                  </Button>
                </Stack>
              ) : (
                <form onSubmit={onSubmit} noValidate>
                  <Stack gap="md">
                    <Title order={2} fz="h3">
                      Send a message
                    </Title>
                    <Grid gap="md">
                      <Grid.Col span={{ base: 12, sm: 6 }}>
                        <TextInput
                          label="Name"
                          autoComplete="name"
                          withAsterisk
                          styles={inputStyles}
                          {...form.getInputProps('name')}
                        />
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, sm: 6 }}>
                        <TextInput
                          label="Email"
                          type="email"
                          autoComplete="email"
                          withAsterisk
                          styles={inputStyles}
                          {...form.getInputProps('email')}
                        />
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, sm: 6 }}>
                        <TextInput
                          label="Company (optional)"
                          autoComplete="organization"
                          styles={inputStyles}
                          {...form.getInputProps('company')}
                        />
                      </Grid.Col>
                      <Grid.Col span={{ base: 12, sm: 6 }}>
                        <TextInput
                          label="Subject"
                          withAsterisk
                          styles={inputStyles}
                          {...form.getInputProps('subject')}
                        />
                      </Grid.Col>
                    </Grid>
                    <Textarea
                      label="Message"
                      withAsterisk
                      autosize
                      minRows={6}
                      maxRows={16}
                      maxLength={MESSAGE_MAX}
                      styles={inputStyles}
                      description={`At least 10 characters. ${form.values.message.length} / ${MESSAGE_MAX}`}
                      {...form.getInputProps('message')}
                    />
                    <FormError message={sendError} />
                    <Group>
                      <Button type="submit" size="md" mih={44} loading={submitting}>
                        Send message
                      </Button>
                    </Group>
                  </Stack>
                </form>
              )}
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <ContactDetails />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
