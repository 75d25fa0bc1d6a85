import { passwordResetRequestBody } from '@coverdesk/contract';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../../lib/api-client.js';
import { formErrors, zodValidate } from '../../../lib/form.js';

export function Component() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: zodValidate(passwordResetRequestBody) });

  const submit = form.onSubmit(async ({ email }) => {
    setError(null);
    setSubmitting(true);
    try {
      await api.post('/accounts/password-reset/', { email });
      setSentTo(email.trim());
    } catch (failure) {
      const { fields, form: message } = formErrors(failure, ['email']);
      form.setErrors(fields);
      setError(message);
    } finally {
      setSubmitting(false);
    }
  });

  if (sentTo) {
    return (
      <Stack gap="md" align="center" ta="center">
        <IconMailCheck size={40} aria-hidden color="var(--mantine-color-indigo-6)" />
        <Title order={1} fz="h2">
          Check your email
        </Title>
        <Text>
          If an account exists for <b>{sentTo}</b>, we have sent it a link to choose a new password. The link
          works once, for one hour.
        </Text>
        <Anchor component={Link} to="/login">
          Back to sign in
        </Anchor>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          Forgot your password?
        </Title>
        <Text c="dimmed" fz="sm">
          Enter the email you sign in with and we will send you a link to choose a new one.
        </Text>
      </div>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          {error && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={submitting} fullWidth size="md">
            Send reset link
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
