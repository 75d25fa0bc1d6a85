import { profileUpdateBody } from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormError } from '../../../components/form-error.js';
import { NewPasswordFields } from '../../../components/new-password-fields.js';
import { FALLBACK_ERROR } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { ApiError } from '../../../lib/http.js';
import { currencyChoices } from '../../../lib/money.js';
import { newPasswordRules } from '../../../lib/password-rules.js';
import { useSession } from '../../../lib/session-context.js';
import { timeZoneChoices } from '../../../lib/time-zone.js';
import { useCan } from '../../../lib/use-can.js';
import { useUpdateProfile } from '../api.js';
import { SessionsCard } from '../components/sessions-card.js';
import { TwoStepCard } from '../components/two-step-card.js';

export function Component() {
  const { session, state } = useSession();
  const user = state.user;
  if (!user) return null;
  return (
    <Stack maw={720}>
      {user.is_demo_user && (
        <Alert color="violet" variant="light" icon={<IconInfoCircle size={18} />}>
          The demo account is shared by every visitor, so its details and password cannot be changed. Start a
          real account to make Coverdesk yours.
        </Alert>
      )}
      <DetailsForm
        key={user.id}
        initial={{
          first_name: user.first_name,
          last_name: user.last_name,
          company_name: user.company_name,
          time_zone: user.time_zone,
          currency: user.currency,
          email: user.email,
        }}
        locked={user.is_demo_user}
        onSaved={(saved) => session.setUser(saved)}
      />
      {!user.is_demo_user && (
        <>
          <PasswordForm />
          <TwoStepCard />
          <SessionsCard />
        </>
      )}
    </Stack>
  );
}

type Details = {
  first_name: string;
  last_name: string;
  company_name: string;
  time_zone: string;
  currency: string;
  email: string;
};

const timeZones = timeZoneChoices();
const currencies = currencyChoices();

function DetailsForm(props: {
  initial: Details;
  locked: boolean;
  onSaved: (user: import('@coverdesk/contract').UserProfile) => void;
}) {
  const update = useUpdateProfile();
  // The agency's name, day and currency are the agency's settings: owners and managers change them.
  const agencyEditable = useCan('agency_settings');
  const agencyNote = agencyEditable ? undefined : 'Owners and managers change the agency’s details.';
  const form = useForm({
    initialValues: { ...props.initial, current_password: '' },
    validate: (values) => {
      const errors = zodValidate(profileUpdateBody)(values);
      const emailChanged = values.email.trim().toLowerCase() !== props.initial.email;
      if (emailChanged && !values.current_password)
        errors.current_password = 'Enter your current password to change your email.';
      return errors;
    },
  });
  const emailChanged = form.values.email.trim().toLowerCase() !== props.initial.email;

  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    const result = await update.mutateAsync({
      first_name: values.first_name,
      last_name: values.last_name,
      ...(agencyEditable
        ? { company_name: values.company_name, time_zone: values.time_zone, currency: values.currency }
        : {}),
      ...(emailChanged ? { email: values.email, current_password: values.current_password } : {}),
    });
    props.onSaved(result.user);
    form.setValues({ ...values, email: result.user.email, current_password: '' });
    form.resetDirty();
    notifications.show({ color: 'green', message: 'Profile saved.' });
  });

  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="sm">
        Your details
      </Title>
      <form onSubmit={onSubmit} noValidate>
        {/* A disabled fieldset locks every input at once (the shared demo account). */}
        <fieldset disabled={props.locked} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="sm">
            <Group grow align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label="First name"
                required
                autoComplete="given-name"
                miw={200}
                {...form.getInputProps('first_name')}
              />
              <TextInput
                label="Last name"
                required
                autoComplete="family-name"
                miw={200}
                {...form.getInputProps('last_name')}
              />
            </Group>
            <TextInput
              label="Agency name"
              required
              autoComplete="organization"
              readOnly={!agencyEditable}
              variant={agencyEditable ? 'default' : 'filled'}
              description={agencyNote}
              {...form.getInputProps('company_name')}
            />
            <Select
              label="Agency time zone"
              description="Your agency's day: it decides which policies are active and which instalments are overdue."
              readOnly={!agencyEditable}
              variant={agencyEditable ? 'default' : 'filled'}
              data={timeZones}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No time zone by that name"
              {...form.getInputProps('time_zone')}
            />
            <Select
              label="Agency currency"
              description="Premiums, payments and commission are shown in it."
              readOnly={!agencyEditable}
              variant={agencyEditable ? 'default' : 'filled'}
              data={currencies}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No currency by that name"
              {...form.getInputProps('currency')}
            />
            <TextInput
              label="Email"
              type="email"
              required
              autoComplete="email"
              description="You sign in with this address."
              {...form.getInputProps('email')}
            />
            {emailChanged && (
              <PasswordInput
                label="Current password"
                description="Needed to change your email."
                autoComplete="current-password"
                required
                {...form.getInputProps('current_password')}
              />
            )}
            <FormError message={error} />
            {!props.locked && (
              <Group justify="flex-end">
                <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                  Save changes
                </Button>
              </Group>
            )}
          </Stack>
        </fieldset>
      </form>
    </Card>
  );
}

function PasswordForm() {
  const update = useUpdateProfile();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', confirm: '' },
    validate: {
      current_password: (value) => (value ? null : 'Enter your current password.'),
      ...newPasswordRules,
    },
  });

  const { onSubmit, error } = useFormSubmit(form, async ({ current_password, new_password }) => {
    await update.mutateAsync({ current_password, new_password }).catch((failure: unknown) => {
      // The spec's wording when the server gives no reason of its own.
      throw failure instanceof ApiError && failure.message === FALLBACK_ERROR
        ? new Error('Failed to change password')
        : failure;
    });
    form.reset();
    notifications.show({ color: 'green', message: 'Password changed. Other devices signed out.' });
  });

  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb={4}>
        Password
      </Title>
      <Text c="dimmed" fz="sm" mb="sm">
        Changing it signs you out on every other device.
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('current_password')}
          />
          <NewPasswordFields form={form} />
          <FormError message={error} />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
