import type { SavedSecret, SettingsSource } from '@coverdesk/contract';
import { Alert, Code, PasswordInput, type PasswordInputProps, Text } from '@mantine/core';
import { IconCircleCheck, IconKey } from '@tabler/icons-react';

/**
 * A secret the server never sends back: empty once saved, and saying so. Left empty, the saved one is
 * kept; typing replaces it.
 */
export function SecretInput({ saved, ...props }: PasswordInputProps & { saved: SavedSecret }) {
  const ending = saved.last4 ? ` (ends in ${saved.last4})` : '';
  return (
    <PasswordInput
      autoComplete="new-password"
      description={saved.set ? `Saved${ending} — enter a new value to replace it.` : props.description}
      placeholder={saved.set ? '••••••••' : undefined}
      {...props}
    />
  );
}

/** Without SETTINGS_ENCRYPTION_KEY the server cannot keep secrets: what the operator must do. */
export function EncryptionKeyMissing() {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconKey size={18} aria-hidden />}
      title="Secrets cannot be saved"
    >
      This server has no <Code>SETTINGS_ENCRYPTION_KEY</Code>, so it cannot store passwords or keys. Set it to
      32 random bytes (for example the output of <Code>openssl rand -hex 32</Code>) on every instance,
      restart, then save here.
    </Alert>
  );
}

/** Which settings the app uses right now, and what saving here does to that. */
export function SourceNote({
  source,
  variable,
  notSetUp,
}: {
  source: SettingsSource;
  variable: string;
  /** What the app does while nothing is set up. */
  notSetUp: string;
}) {
  const text = {
    saved: `In use: the settings saved here (they take the place of ${variable}).`,
    environment: `In use: ${variable} from the server's environment. Saving here replaces it without a restart.`,
    none: notSetUp,
  }[source];
  return (
    <Text fz="sm" c={source === 'none' ? 'red.9' : 'gray.7'}>
      {source === 'saved' && (
        <IconCircleCheck size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />
      )}{' '}
      {text}
    </Text>
  );
}

/** "Saved at …" under a form once it is. */
export const savedAt = (iso: string | null) =>
  iso
    ? `Last saved ${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`
    : '';
