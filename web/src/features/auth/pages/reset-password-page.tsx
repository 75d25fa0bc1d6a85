import { passwordField } from '@coverdesk/contract';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../../lib/api-client.js';
import { formErrors } from '../../../lib/form.js';

export function Component() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { new_password: '', confirm: '' },
    validate: {
      new_password: (value) => {
        const result = passwordField.safeParse(value);
        return result.success ? null : (result.error.issues[0]?.message ?? null);
      },
      confirm: (value, values) => (value === values.new_password ? null : 'The two passwords do not match.'),
    },
  });

  const submit = form.onSubmit(async ({ new_password }) => {
    setError(null);
    setSubmitting(true);
    try {
      await api.post('/accounts/password-reset/confirm/', { token, new_password });
      navigate('/login?reset=done', { replace: true });
    } catch (failure) {
      const { fields, form: message } = formErrors(failure, ['new_password']);
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
          Choose a new password
        </Title>
        <Text c="dimmed" fz="sm">
          Setting a new password signs you out on every device.
        </Text>
      </div>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="New password"
            description="At least 8 characters, not a common password."
            autoComplete="new-password"
            required
            {...form.getInputProps('new_password')}
          />
          <PasswordInput
            label="Repeat the new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirm')}
          />
          {error && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {error}{' '}
              <Anchor component={Link} to="/forgot-password" fz="sm">
                Request a new link
              </Anchor>
            </Alert>
          )}
          <Button type="submit" loading={submitting} fullWidth size="md">
            Set new password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
