import type { AdminTenantDetail, SubscriptionState } from '@coverdesk/contract';
import { Button, Card, NumberInput, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCalendarPlus, IconGift, IconSwitchHorizontal, IconX } from '@tabler/icons-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { DetailField } from '../../../components/detail-field.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatDate } from '../../../lib/format.js';
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
      <TenantHeader tenantId={agency.id} name={agency.name} />
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
        <DetailField label="Cancellation" empty="None">
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
      text="Give the agency more days of trial, from its current end or from today if it has run out. Only an agency that has never paid has a trial."
      button="Extend trial"
      dialogText="The trial runs longer by the days you choose; the agency keeps everything it holds."
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
      text={`Move the agency off the ${subscription.plan_details.display_name} plan at once, at no charge; its trial or paid period runs on as it is.`}
      button="Change plan"
      dialogText="The new plan's features and limits apply at once. An agency holding more than the new plan allows must remove the excess first."
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
      title="Comp a period"
      text="Give the agency free months: active until then, recorded in its billing history at 0, added after any period it has paid for."
      button="Comp period"
      dialogText="The agency is active, free of charge, for the months you choose."
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
      text="End the agency's subscription at the end of its trial or paid period, or at once."
      button="Cancel subscription"
      destructive
      dialogText="The agency keeps its records, but loses access to its screens when the subscription ends."
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
