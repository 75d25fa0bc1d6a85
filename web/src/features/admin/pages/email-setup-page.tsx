import {
  type EmailSetup,
  type EmailSetupBody,
  type EmailTestResult,
  emailSetupBody,
  emailTestBody,
  SMTP_PASSWORD_AGAIN,
  SMTP_SECURITY,
  SMTP_SECURITY_LABELS,
  type SmtpSecurity,
} from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications as toasts } from '@mantine/notifications';
import { IconCheck, IconMailCheck, IconMailX, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { FormSection, FULL_ROW } from '../../../components/form-section.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { useSession } from '../../../lib/session-context.js';
import { EncryptionKeyMissing, SecretInput, SourceNote, savedAt } from '../components/setup-fields.js';
import { useEmailSetup, useForgetEmailSetup, useSaveEmailSetup, useSendTestEmail } from '../setup-api.js';

/** The port each kind of connection usually listens on, offered when the admin picks it. */
const USUAL_PORT: Record<SmtpSecurity, number> = { none: 25, starttls: 587, tls: 465 };

interface Values extends Record<string, unknown> {
  host: string;
  port: number | string;
  security: SmtpSecurity;
  username: string;
  password: string;
  from_email: string;
  from_name: string;
}

const valuesOf = (setup: EmailSetup): Values => ({
  host: setup.host,
  port: setup.port ?? USUAL_PORT[setup.security],
  security: setup.security,
  username: setup.username,
  password: '',
  from_email: setup.from_email,
  from_name: setup.from_name,
});

/** Blank password: the saved one is kept. */
const bodyOf = (values: Values): EmailSetupBody => ({
  ...values,
  port: values.port === '' ? Number.NaN : Number(values.port),
  password: values.password || undefined,
});

/**
 * The server keeps its saved password only for the host, port, security and user it was saved for;
 * asked before sending, so the admin hears it beside the field at once.
 */
function passwordNeededAgain(setup: EmailSetup, values: Values): Record<string, string> {
  if (!setup.saved || !setup.password.set || values.password || !values.username) return {};
  const moved =
    values.host !== setup.host ||
    Number(values.port) !== setup.port ||
    values.security !== setup.security ||
    values.username !== setup.username;
  return moved ? { password: SMTP_PASSWORD_AGAIN } : {};
}

/** /admin/email-setup: the mail server, a password that is never shown again, and a test send. */
export function Component() {
  const setup = useEmailSetup();
  if (setup.isError) return <ErrorState error={setup.error} onRetry={() => void setup.refetch()} />;
  if (setup.isPending) return <Skeleton h={520} radius="md" />;
  return (
    <Stack gap="lg" maw={860}>
      {!setup.data.encryption_key_set && <EncryptionKeyMissing />}
      <SourceNote
        source={setup.data.source}
        variable="SMTP_URL"
        notSetUp="Email is not set up yet: messages are kept in the outbox until it is."
      />
      <EmailForm setup={setup.data} />
      <TestSend ready={setup.data.source !== 'none'} />
    </Stack>
  );
}

function EmailForm({ setup }: { setup: EmailSetup }) {
  const save = useSaveEmailSetup();
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(setup),
    validate: (values) => ({
      ...passwordNeededAgain(setup, values),
      ...zodValidate(emailSetupBody)(bodyOf(values)),
    }),
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(bodyOf(values));
    form.setInitialValues(valuesOf(saved));
    form.reset();
    setConfirmation('Saved. Email goes out through this server from now on.');
    toasts.show({ color: 'green', message: 'Email settings saved.' });
  });
  const security = form.getInputProps('security');

  return (
    <form onSubmit={onSubmit} noValidate onChange={() => setConfirmation(null)}>
      <Stack gap="md">
        <FormSection legend="Mail server">
          <TextInput label="Host" placeholder="smtp.example.com" required {...form.getInputProps('host')} />
          <Select
            label="Security"
            data={SMTP_SECURITY.map((value) => ({ value, label: SMTP_SECURITY_LABELS[value] }))}
            allowDeselect={false}
            {...security}
            onChange={(value) => {
              if (!value) return;
              const next = value as SmtpSecurity;
              // The usual port follows the connection type, unless the admin typed another one.
              if (Object.values(USUAL_PORT).includes(Number(form.getValues().port))) {
                form.setFieldValue('port', USUAL_PORT[next]);
              }
              security.onChange(next);
            }}
          />
          <NumberInput
            label="Port"
            description="Usually 587 with STARTTLS, 465 with TLS."
            min={1}
            max={65535}
            allowDecimal={false}
            allowNegative={false}
            required
            {...form.getInputProps('port')}
          />
        </FormSection>
        <FormSection legend="Sign-in">
          <TextInput
            label="Username"
            description="Leave blank for a server that takes mail without signing in."
            autoComplete="off"
            {...form.getInputProps('username')}
          />
          <SecretInput label="Password" saved={setup.password} {...form.getInputProps('password')} />
        </FormSection>
        <FormSection legend="Sender">
          <TextInput
            label="From address"
            type="email"
            placeholder="no-reply@example.com"
            required
            {...form.getInputProps('from_email')}
          />
          <TextInput label="From name" placeholder="Coverdesk" {...form.getInputProps('from_name')} />
          <Text fz="xs" c="dimmed" style={FULL_ROW}>
            {savedAt(setup.updated_at)}
          </Text>
        </FormSection>
        <FormError message={error} />
        <Group gap="md">
          <Button type="submit" loading={submitting} mih={44}>
            Save email settings
          </Button>
          {setup.saved && (
            <ForgetButton
              onForgotten={(cleared) => {
                form.setInitialValues(valuesOf(cleared));
                form.reset();
                setConfirmation(null);
              }}
            />
          )}
          {confirmation && (
            <Text fz="sm" role="status">
              <IconCheck
                size={16}
                aria-hidden
                color="var(--mantine-color-green-8)"
                style={{ verticalAlign: 'text-bottom' }}
              />{' '}
              {confirmation}
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Deletes the saved server, after asking: the app goes back to SMTP_URL, or keeps email in the outbox. */
function ForgetButton({ onForgotten }: { onForgotten: (cleared: EmailSetup) => void }) {
  const forget = useForgetEmailSetup();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="subtle" color="red" onClick={() => setAsking(true)} mih={44}>
        Stop using these settings
      </Button>
      <ConfirmDialog
        opened={asking}
        title="Stop using the saved mail server?"
        confirmLabel="Delete saved settings"
        busy={forget.isPending}
        error={forget.isError ? errorText(forget.error) : null}
        onClose={() => setAsking(false)}
        onConfirm={() =>
          forget.mutate(undefined, {
            onSuccess: (cleared) => {
              setAsking(false);
              onForgotten(cleared);
              toasts.show({ color: 'green', message: 'Saved mail server deleted.' });
            },
          })
        }
      >
        The settings and the password saved here are deleted. Email then goes out through the server's
        SMTP_URL, or, without one, is kept in the outbox.
      </ConfirmDialog>
    </>
  );
}

/** Sends a message through the server in use and shows exactly what the server answered. */
function TestSend({ ready }: { ready: boolean }) {
  const { state } = useSession();
  const send = useSendTestEmail();
  const form = useForm({
    initialValues: { to: state.user?.email ?? '' },
    validate: zodValidate(emailTestBody),
  });
  const onSubmit = form.onSubmit((values) => send.mutate(values));

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Send a test
          </Title>
          <Text fz="sm" c="gray.7">
            Sends a short message through the server in use (save your changes first) and shows its answer.
          </Text>
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Send to"
              type="email"
              style={{ flex: '1 1 260px' }}
              {...form.getInputProps('to')}
            />
            <Button
              type="submit"
              variant="light"
              leftSection={<IconSend size={18} aria-hidden />}
              loading={send.isPending}
              disabled={!ready}
              mih={44}
            >
              Send test email
            </Button>
          </Group>
          {!ready && (
            <Text fz="sm" c="dimmed">
              Save a mail server first.
            </Text>
          )}
          {send.isError && <FormError message={errorText(send.error)} />}
          {send.data && <TestAnswer result={send.data} />}
        </Stack>
      </form>
    </Card>
  );
}

function TestAnswer({ result }: { result: EmailTestResult }) {
  return (
    <Alert
      color={result.delivered ? 'green' : 'red'}
      variant="light"
      role="status"
      icon={result.delivered ? <IconMailCheck size={18} aria-hidden /> : <IconMailX size={18} aria-hidden />}
      title={result.delivered ? `Accepted for ${result.to}` : `Not sent to ${result.to}`}
    >
      <Stack gap={4}>
        <Text fz="sm">{result.delivered ? 'The mail server answered:' : 'The answer was:'}</Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {result.code !== null && !result.response.startsWith(String(result.code))
            ? `${result.code} ${result.response}`
            : result.response}
        </Code>
      </Stack>
    </Alert>
  );
}
