import { PLAN_TRIAL_NAME, registerBody, SIGNUPS_CLOSED } from '@coverdesk/contract';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { usePublicSettings } from '../../../lib/public-settings.js';
import { useSession } from '../../../lib/session-context.js';
import { browserTimeZone } from '../../../lib/time-zone.js';

export function Component() {
  if (!usePublicSettings().signups_open) return <SignupsClosed />;
  return <RegisterForm />;
}

/** While the platform takes no new agencies: say so, and where to go instead. */
function SignupsClosed() {
  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        Sign-ups are closed
      </Title>
      <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden />}>
        {SIGNUPS_CLOSED} Please come back later, or write to us and we will tell you when they open.
      </Alert>
      <Group gap="sm" grow>
        <Button component={Link} to="/contact" variant="light" size="md">
          Contact us
        </Button>
        <Button component={Link} to="/login" variant="default" size="md">
          Sign in
        </Button>
      </Group>
    </Stack>
  );
}

function RegisterForm() {
  const { session } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const chosenPlan = params.get('plan');
  // A plan chosen on the public site goes on to the checkout, where it is confirmed or left for later.
  const checkout = chosenPlan
    ? `/checkout?${new URLSearchParams({ plan: chosenPlan, cycle: params.get('cycle') ?? 'monthly' })}`
    : null;
  const form = useForm({
    initialValues: { first_name: '', last_name: '', company_name: '', email: '', password: '' },
    validate: zodValidate(registerBody),
  });

  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    await session.register({ ...values, time_zone: browserTimeZone() });
    navigate(checkout ?? '/dashboard', { replace: true });
  });

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h2">
          Start your free trial
        </Title>
        <Text c="dimmed" fz="sm">
          14 days of every {PLAN_TRIAL_NAME} feature. No card needed.
          {chosenPlan && chosenPlan !== PLAN_TRIAL_NAME.toLowerCase() && (
            <> You chose the {chosenPlan} plan: you confirm it after creating your account.</>
          )}
        </Text>
      </div>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
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
          <TextInput
            label="Agency name"
            description="Your brokerage or agency, as your customers know it."
            autoComplete="organization"
            required
            {...form.getInputProps('company_name')}
          />
          <TextInput
            label="Work email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            description="At least 8 characters. A few unrelated words make a strong one."
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <FormError message={error} />
          <Button type="submit" loading={submitting} fullWidth size="md">
            Create my agency
          </Button>
          <Text fz="xs" c="dimmed" ta="center">
            By creating an account you agree to the{' '}
            <Anchor component={Link} to="/terms" fz="xs">
              terms of service
            </Anchor>
            .
          </Text>
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
