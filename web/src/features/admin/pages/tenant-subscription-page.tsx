import { type AdminTenantDetail, PLAN_CURRENCY, type SubscriptionState } from '@coverdesk/contract';
import { Button, Card, NumberInput, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarPlus, IconGift, IconSwitchHorizontal, IconX } from '@tabler/icons-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { DetailField } from '../../../components/detail-field.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { type SubscriptionAction, useAdminTenant, usePlans, useSubscriptionAction } from '../api.js';
import { fieldError, ReasonDialog } from '../components/reason-dialog.js';
import { Muted, TenantHeader } from '../components/tenant-header.js';

const BACK = { to: '/admin/tenants', label: 'Back to agencies' };

/** /admin/tenants/{id}/subscription: the agency's subscription, and the four things an admin may do to it. */
export function Component() {
  const { id = '' } = useParams();
  const tenant = useAdminTenant(id);
  if (tenant.isPending) return <DetailSkeleton />;
  if (tenant.isError)
    return <ErrorState error={tenant.error} onRetry={() => void tenant.refetch()} back={BACK} />;
  const agency = tenant.data;
  return (
    <Stack maw={1200}>
      <TenantHeader tenantId={agency.id} name={agency.name} subscription={agency.subscription} />
      {agency.subscription ? (
        <>
          <Terms subscription={agency.subscription} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <ExtendTrial agency={agency} />
            <ChangePlan agency={agency} subscription={agency.subscription} />
            <CompPeriod agency={agency} />
            <Cancel agency={agency} />
          </SimpleGrid>
        </>
      ) : (
        <Card withBorder padding="lg">
          <Muted>This agency has no subscription to change.</Muted>
        </Card>
      )}
    </Stack>
  );
}

function Terms({ subscription }: { subscription: SubscriptionState }) {
  return (
    <Card withBorder padding="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} component="dl" m={0}>
        <DetailField label="Status">
          <SubscriptionBadge status={subscription.status} />
        </DetailField>
        <DetailField label="Plan">
          {subscription.plan_details.display_name}, billed {subscription.billing_cycle}
        </DetailField>
        <DetailField label="Trial ends" empty="No trial">
          {subscription.trial_ends_at && formatDate(subscription.trial_ends_at)}
        </DetailField>
        <DetailField label="Period ends" empty="No paid period">
          {subscription.current_period_end && formatDate(subscription.current_period_end)}
        </DetailField>
        <DetailField label="Cancellation" empty="Not scheduled">
          {subscription.cancel_at_period_end
            ? 'At the end of the period'
            : subscription.status === 'cancelled'
              ? 'Ended at once'
              : ''}
        </DetailField>
      </SimpleGrid>
    </Card>
  );
}

/** One action: what it does, its button, and its dialog with the fields it needs and the reason. */
function ActionCard(props: {
  agency: AdminTenantDetail;
  action: SubscriptionAction;
  icon: ComponentType<{ size?: number }>;
  title: string;
  text: string;
  button: string;
  destructive?: boolean;
  /** The dialog's own fields, given the last error. */
  fields?: (error: unknown) => ReactNode;
  body: () => Record<string, unknown>;
  dialogText: string;
  onOpen?: () => void;
}) {
  const [opened, setOpened] = useState(false);
  const mutation = useSubscriptionAction(props.agency.id, props.action);
  const Icon = props.icon;
  const close = () => {
    mutation.reset();
    setOpened(false);
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm" h="100%" justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={3} fz="h4">
            {props.title}
          </Title>
          <Text fz="sm" c="dimmed">
            {props.text}
          </Text>
        </Stack>
        <Button
          variant={props.destructive ? 'outline' : 'light'}
          color={props.destructive ? 'red.9' : undefined}
          leftSection={<Icon size={16} />}
          onClick={() => {
            props.onOpen?.();
            setOpened(true);
          }}
        >
          {props.button}
        </Button>
      </Stack>
      <ReasonDialog
        opened={opened}
        title={`${props.title}: ${props.agency.name}`}
        description={props.dialogText}
        confirmLabel={props.button}
        destructive={props.destructive}
        busy={mutation.isPending}
        error={mutation.error}
        onClose={close}
        onConfirm={(reason) =>
          mutation.mutate({ ...props.body(), reason } as never, {
            onSuccess: (result) => {
              notifications.show({ color: 'green', message: result.detail });
              close();
            },
          })
        }
      >
        {props.fields?.(mutation.error)}
      </ReasonDialog>
    </Card>
  );
}

function ExtendTrial({ agency }: { agency: AdminTenantDetail }) {
  const [days, setDays] = useState<number | string>(7);
  return (
    <ActionCard
      agency={agency}
      action="extend-trial"
      icon={IconCalendarPlus}
      title="Extend trial"
      text="Add days to the agency's free trial. If the trial has already ended, the days count from today. Agencies that have paid before have no trial to extend."
      button="Extend trial"
      dialogText="The trial lasts the extra days you choose. Nothing the agency has saved changes."
      onOpen={() => setDays(7)}
      body={() => ({ days })}
      fields={(error) => (
        <NumberInput
          label="Days"
          required
          min={1}
          max={365}
          allowDecimal={false}
          value={days}
          onChange={setDays}
          error={fieldError(error, 'days')}
        />
      )}
    />
  );
}

function ChangePlan({
  agency,
  subscription,
}: {
  agency: AdminTenantDetail;
  subscription: SubscriptionState;
}) {
  const plans = usePlans();
  const [plan, setPlan] = useState<string | null>(null);
  const others = (plans.data ?? []).filter((each) => each.name !== subscription.plan_details.name);
  return (
    <ActionCard
      agency={agency}
      action="change-plan"
      icon={IconSwitchHorizontal}
      title="Change plan"
      text={`Switch the agency from the ${subscription.plan_details.display_name} plan to another one now. There is no charge, and its trial or paid period ends on the same day as before.`}
      button="Change plan"
      dialogText="The new plan's features and limits apply straight away. If the agency has more records than the new plan allows, it must remove some before it can add more."
      onOpen={() => setPlan(null)}
      body={() => ({ plan: plan ?? '' })}
      fields={(error) => (
        <Select
          label="New plan"
          required
          placeholder="Choose a plan"
          data={others.map((each) => ({ value: each.name, label: each.display_name }))}
          value={plan}
          onChange={setPlan}
          error={fieldError(error, 'plan')}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

function CompPeriod({ agency }: { agency: AdminTenantDetail }) {
  const [months, setMonths] = useState<number | string>(1);
  return (
    <ActionCard
      agency={agency}
      action="comp-period"
      icon={IconGift}
      title="Give free months"
      text={`Let the agency use Coverdesk free for a number of months. The months start after any period it has already paid for, and appear in its billing history at ${formatMoney('0.00', PLAN_CURRENCY)}.`}
      button="Give free months"
      dialogText="The agency's subscription is active, free of charge, for the months you choose."
      onOpen={() => setMonths(1)}
      body={() => ({ months })}
      fields={(error) => (
        <NumberInput
          label="Months"
          required
          min={1}
          max={24}
          allowDecimal={false}
          value={months}
          onChange={setMonths}
          error={fieldError(error, 'months')}
        />
      )}
    />
  );
}

function Cancel({ agency }: { agency: AdminTenantDetail }) {
  const [when, setWhen] = useState('period_end');
  return (
    <ActionCard
      agency={agency}
      action="cancel"
      icon={IconX}
      title="Cancel subscription"
      text="Stop the agency's subscription, either when its trial or paid period ends or straight away."
      button="Cancel subscription"
      destructive
      dialogText="The agency's records are kept, but its people can no longer use Coverdesk once the subscription ends."
      onOpen={() => setWhen('period_end')}
      body={() => ({ immediate: when === 'now' })}
      fields={() => (
        <Radio.Group label="When" value={when} onChange={setWhen}>
          <Stack gap="xs" mt="xs">
            <Radio value="period_end" label="At the end of the trial or paid period" />
            <Radio value="now" label="At once: access ends now" />
          </Stack>
        </Radio.Group>
      )}
    />
  );
}
