import {
  EXPIRY_WINDOWS,
  type ExpiringPolicy,
  type ExpiryWindow,
  LAPSED_WITHIN_DAYS,
} from '@coverdesk/contract';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconAlarm, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { InsurerFilter, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { type ListParams, useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { MineFilter } from '../../team/components/assignee.js';
import { useExpiringCounts, useExpiringPolicies } from '../api.js';
import { ContactMenu } from '../components/contact-menu.js';
import { DaysLeft } from '../components/days-left.js';
import { NotRenewingDialog } from '../components/not-renewing-dialog.js';
import { WindowCards } from '../components/window-cards.js';
import classes from './alerts-page.module.css';

const FILTERS = ['within_days', 'include_lapsed', 'company_id', 'assigned_to'] as const;
const DEFAULT_ORDERING = 'end_date';

/** On a phone there are no column headings to sort by, so the sort is a choice among the filters. */
const SORT_OPTIONS = [
  { value: 'end_date', label: 'Ending soonest first' },
  { value: '-end_date', label: 'Ending latest first' },
  { value: '-total_premium', label: 'Highest premium first' },
  { value: 'total_premium', label: 'Lowest premium first' },
];

const windowOf = (value: string | undefined): ExpiryWindow =>
  EXPIRY_WINDOWS.find((days) => String(days) === value) ?? 30;

/** /alerts: the policies to renew before their cover ends, and those that lapsed lately. */
export function Component() {
  const params = useListParams(FILTERS, DEFAULT_ORDERING);
  const within = windowOf(params.filters.within_days);
  const includeLapsed = params.filters.include_lapsed !== 'false';
  const narrowing = {
    ...(params.search ? { search: params.search } : {}),
    ...pick(params, 'company_id', 'assigned_to'),
  };
  const policies = useExpiringPolicies(params.query);
  const counts = useExpiringCounts(narrowing);
  const insurers = useInsurerChoices();
  const [marking, setMarking] = useState<ExpiringPolicy | null>(null);
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const canWork = useCan('work');
  // The window and the lapsed ones are chosen above the list: searching, the insurer and Mine narrow
  // it, and clearing those keeps the window.
  const narrowed = {
    ...params,
    filters: pick(params, 'company_id', 'assigned_to'),
    narrowed: Object.keys(narrowing).length > 0,
    clear: () => params.set({ search: null, company_id: null, assigned_to: null, ordering: null }),
  };

  // Each button keeps its whole label: a table squeezed for room would otherwise cut them short.
  const actions = (policy: ExpiringPolicy) => (
    <Group gap={6} wrap="nowrap" justify="flex-end" className={classes.actions}>
      {canWork && (
        <Button
          component={Link}
          to={`/policies/${policy.id}/renew`}
          size="xs"
          px={10}
          mih={touch}
          leftSection={<IconRefresh size={14} aria-hidden />}
          aria-label={`Renew policy ${policy.policy_number}`}
        >
          Renew
        </Button>
      )}
      <ContactMenu policy={policy} touch={touch} />
      {canWork && (
        <Button
          variant="subtle"
          color="gray"
          size="xs"
          px={8}
          mih={touch}
          onClick={() => setMarking(policy)}
          aria-label={`Not renewing policy ${policy.policy_number}`}
        >
          Not renewing
        </Button>
      )}
    </Group>
  );

  const columns: Column<ExpiringPolicy>[] = [
    { key: 'number', header: 'Policy', render: (policy) => policy.policy_number },
    {
      key: 'customer',
      header: 'Customer',
      render: (policy) => (
        <div>
          <Text fz="sm">{policy.customer_name}</Text>
          <Text fz="xs" c="dimmed">
            {policy.customer_phone || policy.customer_email || 'No contact details'}
          </Text>
        </div>
      ),
    },
    {
      key: 'insurer',
      header: 'Insurer and type',
      render: (policy) => (
        <div>
          <Text fz="sm">{policy.company_name}</Text>
          <Text fz="xs" c="dimmed">
            {policy.policy_type_name}
          </Text>
        </div>
      ),
    },
    {
      key: 'premium',
      header: 'Premium',
      sort: 'total_premium',
      numeric: true,
      render: (policy) => <Money amount={policy.total_premium} />,
    },
    {
      key: 'ends',
      header: 'Ends',
      sort: 'end_date',
      render: (policy) => (
        <div>
          <Text fz="sm">{formatDate(policy.end_date)}</Text>
          <DaysLeft days={policy.days_left} />
        </div>
      ),
    },
    { key: 'actions', header: 'Actions', maxWidth: 360, render: actions },
  ];

  return (
    <Stack>
      <WindowCards
        counts={counts.data}
        within={within}
        includeLapsed={includeLapsed}
        onWithin={(days) => params.set({ within_days: days === 30 ? null : days })}
        onIncludeLapsed={(include) => params.set({ include_lapsed: include ? null : 'false' })}
      />
      <ListToolbar
        params={narrowed}
        searchLabel="Search policy number or customer"
        exportMenu={
          <ExportMenu
            path="/alerts/expiring/export/"
            list="expiring-policies"
            query={params.exportQuery}
            disabled={policies.data?.count === 0}
          />
        }
        filters={
          <>
            <MineFilter
              value={params.filters.assigned_to}
              onChange={(assigned_to) => params.set({ assigned_to })}
            />
            <InsurerFilter params={params} insurers={insurers.data} width={180} />
            <Select
              label="Sort"
              data={SORT_OPTIONS}
              value={params.ordering}
              onChange={(ordering) => params.set({ ordering })}
              allowDeselect={false}
              w={{ base: '100%', sm: 200 }}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'policy', many: 'policies' }}
        query={policies}
        params={narrowed}
        columns={columns}
        href={(policy) => `/policies/${policy.id}`}
        card={(policy) => (
          <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
            <div>
              <Text fw={600}>{policy.customer_name}</Text>
              <Text fz="sm" c="dimmed">
                {policy.policy_number} · {policy.company_name} · {policy.policy_type_name}
              </Text>
              <Text fz="sm">
                <Money amount={policy.total_premium} /> · ends {formatDate(policy.end_date)}
              </Text>
            </div>
            <DaysLeft days={policy.days_left} />
          </Group>
        )}
        cardAction={actions}
        empty={
          <NothingDue
            within={within}
            includeLapsed={includeLapsed}
            wider={EXPIRY_WINDOWS.find((days) => days > within && (counts.data?.[`within_${days}`] ?? 0) > 0)}
            onWiden={(days) => params.set({ within_days: days })}
          />
        }
      />
      {marking && <NotRenewingDialog policy={marking} onClose={() => setMarking(null)} />}
    </Stack>
  );
}

/** The filter values set among `keys`, for the calls and the toolbar that only know those. */
function pick<Filter extends string>(params: ListParams<Filter>, ...keys: Filter[]) {
  return Object.fromEntries(
    keys.flatMap((key) => (params.filters[key] ? [[key, params.filters[key]]] : [])),
  ) as Partial<Record<Filter, string>>;
}

/** Nothing in the window: what this screen is for, and a wider window when that holds policies. */
function NothingDue({
  within,
  includeLapsed,
  wider,
  onWiden,
}: {
  within: ExpiryWindow;
  includeLapsed: boolean;
  wider: ExpiryWindow | undefined;
  onWiden(days: ExpiryWindow): void;
}) {
  return (
    <EmptyState
      icon={IconAlarm}
      title={`Nothing ends in the next ${within} days${includeLapsed ? ' or lapsed lately' : ''}`}
      action={
        wider ? (
          <Button onClick={() => onWiden(wider)}>Show the next {wider} days</Button>
        ) : (
          <Button component={Link} to="/policies" variant="light">
            Open policies
          </Button>
        )
      }
    >
      This is where policies show up as their end date comes near (within 30, 60 or 90 days), and those that
      lapsed in the last {LAPSED_WITHIN_DAYS} days without a renewal, so you can call the customer in time.
      Renew them from here, or mark the ones the customer is not renewing, with the reason.
    </EmptyState>
  );
}
