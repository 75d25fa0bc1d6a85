import {
  acceptInvitationBody,
  type InvitationPreview,
  TEAM_ROLE_DESCRIPTIONS,
  TEAM_ROLE_LABELS,
} from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Button,
  Group,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { api } from '../../../lib/api-client.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { useSession } from '../../../lib/session-context.js';

/** The link's token stays in the request body, out of addresses and logs (the API reads it there). */
function usePreview(token: string) {
  return useQuery({
    queryKey: [...queryKeys.team, 'invitation', token],
    queryFn: ({ signal }) => api.post<InvitationPreview>('/team/invitations/preview/', { token }, { signal }),
  });
}

/** A link that no longer opens anything: unknown or withdrawn (404), used or expired (410). */
const spent = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 410);

/** /invite/{token}: the invited person sees who invites them to which agency, and joins. */
export function Component() {
  const { token = '' } = useParams();
  const preview = usePreview(token);

  if (preview.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading">
        <Skeleton h={32} w="70%" />
        <Skeleton h={48} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (preview.isError) {
    if (spent(preview.error)) return <InvitationClosed message={preview.error.message} />;
    return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />;
  }
  return <JoinForm token={token} invitation={preview.data} />;
}

function InvitationClosed({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        This invitation cannot be used
      </Title>
      <Alert color="gray" variant="light" icon={<IconMailOff size={18} aria-hidden />}>
        {message}
      </Alert>
      <Button component={Link} to="/login" variant="light" size="md">
        Sign in
      </Button>
    </Stack>
  );
}

const joinBody = acceptInvitationBody.omit({ token: true });

function JoinForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { first_name: '', last_name: '', password: '' },
    validate: zodValidate(joinBody),
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    await session.acceptInvitation({ ...values, token });
    navigate('/dashboard', { replace: true });
  });
  const role = TEAM_ROLE_LABELS[invitation.role];

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          Join {invitation.company_name}
        </Title>
        <Text fz="sm">
          {invitation.invited_by_name} invited you to join the agency on Coverdesk as{' '}
          {/^[AEIOU]/.test(role) ? 'an' : 'a'} <strong>{role}</strong>.{' '}
          {TEAM_ROLE_DESCRIPTIONS[invitation.role]}
        </Text>
        <Text c="dimmed" fz="xs" mt={4}>
          The invitation is good until {formatDate(invitation.expires_at)}.
        </Text>
      </div>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            description="You sign in with this address."
            value={invitation.email}
            readOnly
            variant="filled"
            autoComplete="username"
          />
          <Group grow align="flex-start" gap="sm">
            <TextInput
              label="First name"
              autoComplete="given-name"
              required
              {...form.getInputProps('first_name')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              required
              {...form.getInputProps('last_name')}
            />
          </Group>
          <PasswordInput
            label="Password"
            description="At least 8 characters. A few unrelated words make a strong one."
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <FormError message={error}>
            {' '}
            <Anchor component={Link} to="/login" fz="sm">
              Sign in
            </Anchor>
          </FormError>
          <Button type="submit" loading={submitting} fullWidth size="md">
            Join {invitation.company_name}
          </Button>
        </Stack>
      </form>
      <Text fz="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to="/login" fz="sm">
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
