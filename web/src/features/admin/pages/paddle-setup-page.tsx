import {
  PADDLE_ENVIRONMENTS,
  type PaddleCheckResult,
  type PaddleSetup,
  type PaddleSetupBody,
  paddleSetupBody,
} from '@coverdesk/contract';
import {
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Fieldset,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications as toasts } from '@mantine/notifications';
import { IconCheck, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { FormSection, FULL_ROW } from '../../../components/form-section.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { EncryptionKeyMissing, SecretInput, SourceNote, savedAt } from '../components/setup-fields.js';
import { useCheckPaddle, usePaddleSetup, useSavePaddleSetup } from '../setup-api.js';

type Environment = PaddleSetup['environment'];

interface Values extends Record<string, unknown> {
  environment: Environment;
  api_key: string;
  client_token: string;
  webhook_secret: string;
  prices: Record<string, { monthly: string; yearly: string }>;
}

const valuesOf = (setup: PaddleSetup): Values => ({
  environment: setup.environment,
  api_key: '',
  client_token: setup.client_token,
  webhook_secret: '',
  prices: Object.fromEntries(
    setup.prices.map((price) => [price.plan, { monthly: price.monthly, yearly: price.yearly }]),
  ),
});

/** Blank secrets: the saved ones are kept. */
const bodyOf = (values: Values): PaddleSetupBody => ({
  ...values,
  api_key: values.api_key || undefined,
  webhook_secret: values.webhook_secret || undefined,
});

/** /admin/paddle-setup: Paddle's keys (never shown again once saved), its prices per plan, and a check. */
export function Component() {
  const setup = usePaddleSetup();
  if (setup.isError) return <ErrorState error={setup.error} onRetry={() => void setup.refetch()} />;
  if (setup.isPending) return <Skeleton h={640} radius="md" />;
  return (
    <Stack gap="lg" maw={960}>
      {!setup.data.encryption_key_set && <EncryptionKeyMissing />}
      <SourceNote
        source={setup.data.source}
        variable="the PADDLE_* variables"
        notSetUp="Paddle is not set up yet: until it is, plan changes are recorded as manual payments."
      />
      <PaddleForm setup={setup.data} />
      <ConnectionCheck ready={setup.data.source !== 'none'} />
    </Stack>
  );
}

function PaddleForm({ setup }: { setup: PaddleSetup }) {
  const save = useSavePaddleSetup();
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(setup),
    validate: (values) => {
      const errors = zodValidate(paddleSetupBody)(bodyOf(values));
      // Nothing saved yet: both secrets are needed; the API says so too.
      if (!setup.saved && !values.api_key) errors.api_key ??= 'Enter the API key.';
      if (!setup.saved && !values.webhook_secret) errors.webhook_secret ??= 'Enter the webhook secret.';
      return errors;
    },
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(bodyOf(values));
    form.setInitialValues(valuesOf(saved));
    form.reset();
    setConfirmation('Saved. Billing uses these settings from now on.');
    toasts.show({ color: 'green', message: 'Paddle settings saved.' });
  });
  const environment = form.getInputProps('environment');

  return (
    <form onSubmit={onSubmit} noValidate onChange={() => setConfirmation(null)}>
      <Stack gap="md">
        <FormSection legend="Account">
          <Stack gap={4} style={FULL_ROW}>
            <Text fz="sm" fw={500} id="paddle-environment-label">
              Environment
            </Text>
            <SegmentedControl
              aria-labelledby="paddle-environment-label"
              data={PADDLE_ENVIRONMENTS.map((value) => ({
                value,
                label: value === 'sandbox' ? 'Sandbox' : 'Production',
              }))}
              value={environment.value as Environment}
              onChange={(value) => {
                environment.onChange(value);
                setConfirmation(null);
              }}
              style={{ alignSelf: 'flex-start' }}
            />
            <Text fz="xs" c="dimmed">
              Sandbox takes test payments only; production charges real cards. The keys belong to one of them.
            </Text>
          </Stack>
          <SecretInput
            label="API key"
            description="From Paddle › Developer tools › Authentication. Needs write access to subscriptions, transactions, customers and payment methods."
            saved={setup.api_key}
            required={!setup.saved}
            {...form.getInputProps('api_key')}
          />
          <TextInput
            label="Client-side token"
            description="Handed to the browser to open Paddle's checkout."
            autoComplete="off"
            required
            {...form.getInputProps('client_token')}
          />
        </FormSection>
        <FormSection legend="Webhook">
          <Stack gap={4} style={FULL_ROW}>
            <Text fz="sm">
              In Paddle, add a notification destination for <Code>subscription.*</Code>,{' '}
              <Code>transaction.completed</Code> and <Code>transaction.payment_failed</Code> at:
            </Text>
            <Group gap="xs">
              <Code style={{ wordBreak: 'break-all' }}>{setup.webhook_url}</Code>
              <CopyButton value={setup.webhook_url}>
                {({ copied, copy }) => (
                  <Button variant="subtle" size="compact-sm" mih={44} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
          <SecretInput
            label="Webhook secret"
            description="The destination's secret key."
            saved={setup.webhook_secret}
            required={!setup.saved}
            {...form.getInputProps('webhook_secret')}
          />
          <Text fz="xs" c="red.9" style={{ alignSelf: 'center' }}>
            Replacing the secret leaves subscriptions bought before unfollowed: change it only with a new
            destination.
          </Text>
        </FormSection>
        <Fieldset legend="Prices" radius="md" styles={{ legend: { fontWeight: 600 } }}>
          <Stack gap="md">
            <Text fz="sm" c="gray.7">
              Each plan's Paddle price ids (pri_…). A plan without one cannot be bought online in that cycle.
            </Text>
            {setup.prices.map((price) => (
              <SimpleGrid key={price.plan} cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing={4}>
                <Text fw={600} style={{ alignSelf: 'center' }}>
                  {price.display_name}
                </Text>
                <TextInput
                  label={`${price.display_name} monthly price id`}
                  placeholder="pri_…"
                  autoComplete="off"
                  {...form.getInputProps(`prices.${price.plan}.monthly`)}
                />
                <TextInput
                  label={`${price.display_name} yearly price id`}
                  placeholder="pri_…"
                  autoComplete="off"
                  {...form.getInputProps(`prices.${price.plan}.yearly`)}
                />
              </SimpleGrid>
            ))}
          </Stack>
        </Fieldset>
        <Text fz="xs" c="dimmed">
          {savedAt(setup.updated_at)}
        </Text>
        <FormError message={error} />
        <Group gap="md">
          <Button type="submit" loading={submitting} mih={44}>
            Save Paddle settings
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
  );
}

/** Calls Paddle with the key in use and says what happened. */
function ConnectionCheck({ ready }: { ready: boolean }) {
  const check = useCheckPaddle();
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Connection check
        </Title>
        <Text fz="sm" c="gray.7">
          Asks Paddle for its event types with the saved API key: it tells whether Paddle can be reached and
          accepts the key.
        </Text>
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlugConnected size={18} aria-hidden />}
            loading={check.isPending}
            disabled={!ready}
            onClick={() => check.mutate()}
            mih={44}
          >
            Check connection
          </Button>
        </Group>
        {check.isError && <FormError message={errorText(check.error)} />}
        {check.data && <CheckAnswer result={check.data} />}
      </Stack>
    </Card>
  );
}

function CheckAnswer({ result }: { result: PaddleCheckResult }) {
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      variant="light"
      role="status"
      icon={
        result.ok ? <IconPlugConnected size={18} aria-hidden /> : <IconPlugConnectedX size={18} aria-hidden />
      }
      title={result.ok ? 'Paddle answered' : 'The check failed'}
    >
      {result.detail}
    </Alert>
  );
}
