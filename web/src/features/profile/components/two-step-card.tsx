import type { TotpSetup } from '@coverdesk/contract';
import {
  Badge,
  Box,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconShieldCheck } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { OneTimeCodeInput } from '../../../components/one-time-code-input.js';
import { useFormSubmit } from '../../../lib/form.js';
import { saveFile } from '../../../lib/save-file.js';
import { useSession } from '../../../lib/session-context.js';
import { useRenewRecoveryCodes, useTotpConfirm, useTotpDisable, useTotpSetup } from '../api.js';

const CODE_HINT = 'Enter the 6-digit code from your authenticator app.';
const sixDigits = (value: string) => (/^\d{6}$/.test(value.replace(/\s+/g, '')) ? null : CODE_HINT);

/** Two codes a row on a desk, one on a narrow phone. */
const CODE_GRID = {
  listStyle: 'none',
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(11rem, 1fr))',
  gap: 'var(--mantine-spacing-xs)',
} as const;

/** The secret in groups of four, as an app's "enter a key" screen is easiest to type from. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Two-step sign-in on the profile's settings: turning it on by scanning a QR code (or typing its
 * key), the recovery codes shown once, new ones on request, and turning it off.
 */
export function TwoStepCard() {
  const { session, state } = useSession();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const start = useTotpSetup();
  const enabled = state.user?.mfa_enabled ?? false;

  const done = (recovery: string[]) => {
    setSetup(null);
    setCodes(recovery);
    void session.refreshProfile();
  };

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb={4}>
        <Title order={2} fz="h4">
          Two-step sign-in
        </Title>
        <Badge color={enabled ? 'green' : 'gray'} variant="light" leftSection={<IconShieldCheck size={14} />}>
          {enabled ? 'On' : 'Off'}
        </Badge>
      </Group>
      <Text c="dimmed" fz="sm" mb="sm">
        {enabled
          ? 'Signing in asks for a code from your authenticator app after your password.'
          : 'Ask for a code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…) after your password, so a stolen password alone cannot open your book.'}
      </Text>
      {codes ? (
        <RecoveryCodeList codes={codes} onDone={() => setCodes(null)} />
      ) : setup ? (
        <SetupPanel setup={setup} onConfirmed={done} onCancel={() => setSetup(null)} />
      ) : enabled ? (
        <Group gap="sm">
          <Button variant="default" onClick={() => setRenewing(true)}>
            New recovery codes
          </Button>
          <Button variant="default" color="red" onClick={() => setDisabling(true)}>
            Turn off
          </Button>
        </Group>
      ) : (
        <Stack gap="xs" align="flex-start">
          <FormError message={start.error ? start.error.message : null} />
          <Button loading={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: setSetup })}>
            Turn on two-step sign-in
          </Button>
        </Stack>
      )}
      <RenewCodesDialog
        opened={renewing}
        onClose={() => setRenewing(false)}
        onDone={(recovery) => {
          setRenewing(false);
          setCodes(recovery);
        }}
      />
      <DisableDialog
        opened={disabling}
        onClose={() => setDisabling(false)}
        onDone={() => {
          setDisabling(false);
          void session.refreshProfile();
          notifications.show({ color: 'green', message: 'Two-step sign-in is off.' });
        }}
      />
    </Card>
  );
}

function SetupPanel(props: { setup: TotpSetup; onConfirmed(codes: string[]): void; onCancel(): void }) {
  const confirm = useTotpConfirm();
  const form = useForm({ initialValues: { code: '' }, validate: { code: sixDigits } });
  const { onSubmit, error } = useFormSubmit(form, async ({ code }) => {
    props.onConfirmed((await confirm.mutateAsync(code)).recovery_codes);
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text fz="sm">1. Scan this code with your authenticator app.</Text>
        <QRCodeSVG
          value={props.setup.otpauth_url}
          size={176}
          marginSize={2}
          title="QR code of the two-step sign-in key"
          role="img"
        />
        <Text fz="sm">Cannot scan it? Add the account by typing this key:</Text>
        <Group gap="xs">
          <Code fz="md" data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
            {grouped(props.setup.secret)}
          </Code>
          <CopyButton value={props.setup.secret}>
            {({ copied, copy }) => (
              <Button variant="subtle" size="compact-sm" mih={44} onClick={copy}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <OneTimeCodeInput
          label="2. Enter the 6-digit code the app shows"
          w={220}
          {...form.getInputProps('code')}
        />
        <FormError message={error} />
        <Group gap="sm">
          <Button type="submit" loading={confirm.isPending}>
            Turn on
          </Button>
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The recovery codes, shown once: to copy, download or write down before going on. */
function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const text = `${codes.join('\n')}\n`;
  return (
    <Stack gap="sm">
      <Text fz="sm" fw={600}>
        Save these recovery codes now. Each signs you in once if you lose your phone; they are not shown
        again.
      </Text>
      <Box component="ul" aria-label="Recovery codes" p={0} m={0} style={CODE_GRID}>
        {codes.map((code) => (
          <Box component="li" key={code}>
            <Code fz="md">{code}</Code>
          </Box>
        ))}
      </Box>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), 'coverdesk-recovery-codes.txt')}
        >
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
    </Stack>
  );
}

/** Ten new recovery codes for a current code; the old ones stop working. */
function RenewCodesDialog(props: { opened: boolean; onClose(): void; onDone(codes: string[]): void }) {
  const renew = useRenewRecoveryCodes();
  const form = useForm({ initialValues: { code: '' }, validate: { code: sixDigits } });
  const { onSubmit, error } = useFormSubmit(form, async ({ code }) => {
    props.onDone((await renew.mutateAsync(code)).recovery_codes);
    form.reset();
  });
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="New recovery codes" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm">
            Your old recovery codes stop working. Enter a code from your authenticator app to make ten new
            ones.
          </Text>
          <OneTimeCodeInput label="Code" {...form.getInputProps('code')} />
          <FormError message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={renew.isPending}>
              Make new codes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DisableDialog(props: { opened: boolean; onClose(): void; onDone(): void }) {
  const disable = useTotpDisable();
  const form = useForm({
    initialValues: { password: '', code: '' },
    validate: { password: (value) => (value ? null : 'Enter your password.'), code: sixDigits },
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    await disable.mutateAsync(values);
    form.reset();
    props.onDone();
  });
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Turn off two-step sign-in" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm">
            Your password alone will sign you in again, and your recovery codes stop working. Confirm with
            your password and a code from your app.
          </Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <OneTimeCodeInput label="Code" {...form.getInputProps('code')} />
          <FormError message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={disable.isPending}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
