import type { UserProfile } from '@coverdesk/contract';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { OneTimeCodeInput } from '../../../components/one-time-code-input.js';
import { useFormSubmit } from '../../../lib/form.js';
import { useSession } from '../../../lib/session-context.js';

/**
 * The second step of a sign-in with two-step sign-in on: the authenticator app's code, or one of the
 * recovery codes saved when it was turned on.
 */
export function SecondStep(props: {
  challenge: string;
  onSignedIn: (user: UserProfile) => void;
  onRestart: () => void;
}) {
  const { session } = useSession();
  const [withRecovery, setWithRecovery] = useState(false);
  const form = useForm({
    initialValues: { code: '', recovery_code: '' },
    validate: {
      code: (value) =>
        withRecovery || /^\d{6}$/.test(value.replace(/\s+/g, ''))
          ? null
          : 'Enter the 6-digit code from your authenticator app.',
      recovery_code: (value) => (!withRecovery || value.trim() ? null : 'Enter one of your recovery codes.'),
    },
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async ({ code, recovery_code }) => {
    const proof = withRecovery ? { recovery_code } : { code };
    props.onSignedIn(await session.loginWithCode(props.challenge, proof));
  });
  const switchTo = (recovery: boolean) => {
    form.clearErrors();
    setWithRecovery(recovery);
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          Two-step sign-in
        </Title>
        <Text c="dimmed" fz="sm">
          {withRecovery
            ? 'Enter one of the recovery codes you saved when you turned two-step sign-in on. Each works once.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
      </div>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {withRecovery ? (
            <TextInput
              key="recovery"
              label="Recovery code"
              placeholder="ABCD-EFGH-JKLM"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              autoFocus
              required
              {...form.getInputProps('recovery_code')}
            />
          ) : (
            <OneTimeCodeInput
              key="code"
              label="Code"
              placeholder="123456"
              autoFocus
              {...form.getInputProps('code')}
            />
          )}
          <FormError message={error} />
          <Button type="submit" loading={submitting} fullWidth size="md">
            Verify and sign in
          </Button>
          <Anchor component="button" type="button" fz="sm" onClick={() => switchTo(!withRecovery)}>
            {withRecovery ? 'Use the code from your authenticator app' : 'Use a recovery code instead'}
          </Anchor>
          <Anchor component="button" type="button" fz="sm" c="dimmed" onClick={props.onRestart}>
            Start again with your password
          </Anchor>
        </Stack>
      </form>
    </Stack>
  );
}
