import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { NewPasswordFields } from '../../../components/new-password-fields.js';
import { api } from '../../../lib/api-client.js';
import { useFormSubmit } from '../../../lib/form.js';
import { newPasswordRules } from '../../../lib/password-rules.js';

export function Component() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { new_password: '', confirm: '' },
    validate: newPasswordRules,
  });

  const { onSubmit, error, submitting } = useFormSubmit(form, async ({ new_password }) => {
    await api.post('/accounts/password-reset/confirm/', { token, new_password });
    navigate('/login?reset=done', { replace: true });
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
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <NewPasswordFields form={form} />
          <FormError message={error}>
            {' '}
            <Anchor component={Link} to="/forgot-password" fz="sm">
              Request a new link
            </Anchor>
          </FormError>
          <Button type="submit" loading={submitting} fullWidth size="md">
            Set new password
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
