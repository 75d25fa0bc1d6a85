import type { Dashboard } from '@coverdesk/contract';
import { Alert, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { ErrorState } from '../../../components/page-states.js';
import { useSession } from '../../../lib/session-context.js';
import { useAgencySetup, useDashboard } from '../api.js';
import { OverduePayments, RecentLeads, RenewalsDue, TodaysAgenda } from '../components/attention-lists.js';
import { Breakdowns, MonthsChart } from '../components/dashboard-charts.js';
import { KeyFigures, KeyFiguresSkeleton } from '../components/key-figures.js';
import { QuickActions } from '../components/quick-actions.js';
import { SetupSteps } from '../components/setup-steps.js';
import { WhatYouWillSee } from '../components/what-you-will-see.js';

/**
 * The first screen after sign-in: the agency's figures, each a link to the list it counts, the last
 * 12 months, and what needs attention today. Until the agency has insurers, customers and policies,
 * the setup steps and what each card will show once it has.
 */
export function Component() {
  const { state } = useSession();
  const setup = useAgencySetup();
  // A failed setup check hides nothing: the figures are the useful fallback.
  const settingUp = setup.data && !(setup.data.insurers && setup.data.customers && setup.data.policies);
  // Asked for alongside the setup check, not after it: an agency at work sees its figures one round trip sooner.
  const dashboard = useDashboard(!settingUp);
  const user = state.user;
  if (!user) return null;
  return (
    <Stack maw={1400}>
      <div>
        <Title order={2}>Good to see you, {user.first_name || 'there'}.</Title>
        <Text c="dimmed">{user.company_name}</Text>
      </div>
      {user.is_demo_user && (
        <Alert color="violet" variant="light" icon={<IconFlask size={18} />}>
          This sample agency is yours to explore. Change anything you like: it resets every night.
        </Alert>
      )}
      <QuickActions />
      {setup.isPending ? (
        <DashboardSkeleton />
      ) : settingUp ? (
        <>
          <SetupSteps setup={setup.data} />
          <WhatYouWillSee />
        </>
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
      ) : dashboard.data ? (
        <Figures data={dashboard.data} />
      ) : (
        <DashboardSkeleton />
      )}
    </Stack>
  );
}

function Figures({ data }: { data: Dashboard }) {
  return (
    <>
      <KeyFigures data={data} />
      {/* What needs attention today: the day's agenda first. */}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {data.agenda && <TodaysAgenda agenda={data.agenda} today={data.today} />}
        {data.payments && <OverduePayments payments={data.payments} />}
        {data.policies && <RenewalsDue policies={data.policies} />}
        {data.leads && <RecentLeads leads={data.leads} />}
      </SimpleGrid>
      {data.months && <MonthsChart months={data.months} />}
      <Breakdowns commission={data.commission} policies={data.policies} />
    </>
  );
}

function DashboardSkeleton() {
  return (
    <Stack aria-busy="true" aria-label="Loading">
      <KeyFiguresSkeleton />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton h={260} radius="md" />
        <Skeleton h={260} radius="md" />
        <Skeleton h={260} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}
