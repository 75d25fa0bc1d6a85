import { passwordResetRequestBody } from '@coverdesk/contract';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { api } from '../../../lib/api-client.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';

export function Component() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ initialValues: { email: '' }, validate: zodValidate(passwordResetRequestBody) });

  const { onSubmit, error, submitting } = useFormSubmit(form, async ({ email }) => {
    await api.post('/accounts/password-reset/', { email });
    setSentTo(email.trim());
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
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <FormError message={error} />
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
