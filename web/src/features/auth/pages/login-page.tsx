import type { UserProfile } from '@coverdesk/contract';
import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { TryDemoButton } from '../../../components/try-demo-button.js';
import { useFormSubmit } from '../../../lib/form.js';
import { isAdminHost } from '../../../lib/hosts.js';
import { usePublicSettings } from '../../../lib/public-settings.js';
import { useSession } from '../../../lib/session-context.js';
import { SecondStep } from '../components/second-step.js';

/** Only paths of this app are followed after sign-in, never another site. */
function safeNext(next: string | null): string | null {
  if (!next?.startsWith('/')) return null;
  const target = new URL(next, window.location.origin);
  return target.origin === window.location.origin ? `${target.pathname}${target.search}${target.hash}` : null;
}

export function Component() {
  const { session } = useSession();
  const navigate = useNavigate();
  const { demo_available: demoAvailable } = usePublicSettings();
  const [params] = useSearchParams();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email address.'),
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });

  const [challenge, setChallenge] = useState<string | null>(null);

  const enter = (user: UserProfile) => {
    const home = user.is_admin && isAdminHost(window.location.hostname) ? '/admin' : '/dashboard';
    navigate(safeNext(params.get('next')) ?? home, { replace: true });
  };

  const { onSubmit, error, submitting } = useFormSubmit(form, async ({ email, password }) => {
    const answer = await session.login(email, password);
    if ('mfa_required' in answer) setChallenge(answer.mfa_token);
    else enter(answer);
  });

  if (challenge) {
    return (
      <SecondStep
        challenge={challenge}
        onSignedIn={enter}
        onRestart={() => {
          setChallenge(null);
          form.setFieldValue('password', '');
        }}
      />
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          Sign in
        </Title>
        <Text c="dimmed" fz="sm">
          Welcome back. Sign in to your agency.
        </Text>
      </div>
      {params.get('reset') === 'done' && (
        <Alert color="green" variant="light">
          Your password has been reset. Sign in with the new one.
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Anchor component={Link} to="/forgot-password" fz="sm" ta="right">
            Forgot your password?
          </Anchor>
          <FormError message={error} />
          <Button type="submit" loading={submitting} fullWidth size="md">
            Sign in
          </Button>
        </Stack>
      </form>
      {demoAvailable && (
        <>
          <Divider label="or" labelPosition="center" />
          <TryDemoButton fullWidth withRoles />
        </>
      )}
      <Text fz="sm" ta="center">
        New to Coverdesk?{' '}
        <Anchor component={Link} to="/register" fz="sm">
          Start your free trial
        </Anchor>
      </Text>
    </Stack>
  );
}
