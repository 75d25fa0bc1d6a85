import { MAX_TRIAL_DAYS, type PlatformSettings, platformSettings } from '@coverdesk/contract';
import { Button, Card, Group, NumberInput, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications as toasts } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { usePlatformSettings, useSavePlatformSettings } from '../setup-api.js';

interface Values extends Record<string, unknown> {
  signups_open: boolean;
  demo_enabled: boolean;
  /** Blank: each plan's own trial. */
  default_trial_days: number | string;
}

const valuesOf = (settings: PlatformSettings): Values => ({
  ...settings,
  default_trial_days: settings.default_trial_days ?? '',
});

const bodyOf = (values: Values): PlatformSettings => ({
  signups_open: values.signups_open,
  demo_enabled: values.demo_enabled,
  default_trial_days: values.default_trial_days === '' ? null : Number(values.default_trial_days),
});

/** /admin/settings: sign-ups open or closed, the demo on or off, the trial new agencies get. */
export function Component() {
  const settings = usePlatformSettings();
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  if (settings.isPending) return <Skeleton h={360} radius="md" />;
  return <SettingsForm settings={settings.data} />;
}

function SettingsForm({ settings }: { settings: PlatformSettings }) {
  const save = useSavePlatformSettings();
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(settings),
    validate: (values) => zodValidate(platformSettings)(bodyOf(values)),
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(bodyOf(values));
    form.setInitialValues(valuesOf(saved));
    form.reset();
    setConfirmation('Settings saved. They apply at once.');
    toasts.show({ color: 'green', message: 'Platform settings saved.' });
  });

  return (
    <Card withBorder radius="md" padding="lg" maw={720}>
      <form onSubmit={onSubmit} noValidate onChange={() => setConfirmation(null)}>
        <Stack gap="lg">
          <Switch
            size="md"
            label="Sign-ups open"
            description="When closed, the register page says so and no new agency can be created. Existing agencies sign in as usual."
            {...form.getInputProps('signups_open', { type: 'checkbox' })}
          />
          <Switch
            size="md"
            label="Demo on"
            description={`When off, "Try the demo" disappears from the public pages and the demo login is refused.`}
            {...form.getInputProps('demo_enabled', { type: 'checkbox' })}
          />
          <NumberInput
            label="Default trial days"
            description={`The free trial a new agency starts with, 1 to ${MAX_TRIAL_DAYS} days. Leave blank to use each plan's own trial (14 days for Professional). Trials already running keep their end date.`}
            placeholder="Each plan's own"
            min={1}
            max={MAX_TRIAL_DAYS}
            allowDecimal={false}
            allowNegative={false}
            maw={{ base: '100%', sm: 360 }}
            {...form.getInputProps('default_trial_days')}
          />
          <FormError message={error} />
          <Group gap="md">
            <Button type="submit" loading={submitting} disabled={!form.isDirty()} mih={44}>
              Save settings
            </Button>
            {confirmation && (
              <Text fz="sm" role="status">
                <IconCheck
                  size={16}
                  aria-hidden
                  color="var(--mantine-color-green-8)"
                  style={{ verticalAlign: 'text-bottom' }}
                />{' '}
                {confirmation}
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
