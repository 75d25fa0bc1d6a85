import { Alert, Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { TryDemoButton } from '../../../components/try-demo-button.js';
import { formErrors } from '../../../lib/form.js';
import { isAdminHost } from '../../../lib/hosts.js';
import { useSession } from '../../../lib/session-context.js';

/** Only paths of this app are followed after sign-in, never another site. */
function safeNext(next: string | null): string | null {
  if (!next?.startsWith('/')) return null;
  const target = new URL(next, window.location.origin);
  return target.origin === window.location.origin ? `${target.pathname}${target.search}${target.hash}` : null;
}

export function Component() {
  const { session } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email address.'),
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });

  const submit = form.onSubmit(async ({ email, password }) => {
    setError(null);
    setSubmitting(true);
    try {
      const user = await session.login(email, password);
      const home = user.is_admin && isAdminHost(window.location.hostname) ? '/admin' : '/dashboard';
      navigate(safeNext(params.get('next')) ?? home, { replace: true });
    } catch (failure) {
      const { fields, form: message } = formErrors(failure, ['email', 'password']);
      form.setErrors(fields);
      setError(message);
    } finally {
      setSubmitting(false);
    }
  });

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
      <form onSubmit={submit} noValidate>
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
          {error && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={submitting} fullWidth size="md">
            Sign in
          </Button>
        </Stack>
      </form>
      <Divider label="or" labelPosition="center" />
      <TryDemoButton fullWidth />
      <Text fz="sm" ta="center">
        New to Coverdesk?{' '}
        <Anchor component={Link} to="/register" fz="sm">
          Start your free trial
        </Anchor>
      </Text>
    </Stack>
  );
}
