import {
  COMMISSION_PAYMENT_METHOD_LABELS,
  COMMISSION_PAYMENT_METHODS,
  type Company,
} from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBuildingBank, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { useListParams } from '../../../lib/list-params.js';
import { useCan } from '../../../lib/use-can.js';
import { useCompanies, useSellablePolicyTypes } from '../api.js';
import { PaymentMethodBadge } from '../components/payment-method-badge.js';

const FILTERS = ['policy_type_id', 'commission_payment_method'] as const;
const METHOD_OPTIONS = COMMISSION_PAYMENT_METHODS.map((value) => ({
  value,
  label: COMMISSION_PAYMENT_METHOD_LABELS[value],
}));

const typesSold = (company: Company) =>
  company.policy_types.length === 0
    ? 'No policy types yet'
    : company.policy_types
        .map((rate) => `${rate.custom_name || rate.name} ${rate.commission_percentage}%`)
        .join(', ');

const columns: Column<Company>[] = [
  // An insurer list has few columns: its names and addresses have room to show whole.
  { key: 'name', header: 'Insurer', sort: 'name', maxWidth: 320, render: (company) => company.name },
  {
    key: 'contact',
    header: 'Contact',
    maxWidth: 320,
    render: (company) => (
      <div>
        <Text fz="sm">{company.contact_person || '—'}</Text>
        <Text fz="xs" c="dimmed">
          {[company.email, company.phone].filter(Boolean).join(' · ')}
        </Text>
      </div>
    ),
  },
  {
    key: 'types',
    header: 'Policy types and commission',
    maxWidth: 360,
    render: typesSold,
  },
  {
    key: 'method',
    header: 'Commission paid',
    render: (company) => <PaymentMethodBadge method={company.commission_payment_method} />,
  },
];

export function Component() {
  const params = useListParams(FILTERS, 'name');
  const companies = useCompanies(params.query);
  const types = useSellablePolicyTypes();
  const newCompany = useCan('insurers') && (
    <Button component={Link} to="/companies/create" leftSection={<IconPlus size={16} aria-hidden />}>
      New insurer
    </Button>
  );

  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search insurers"
        action={newCompany}
        filters={
          <>
            <FilterSelect
              params={params}
              name="policy_type_id"
              label="Sells"
              placeholder="Any policy type"
              data={(types.data ?? []).map((type) => ({ value: type.id, label: type.name }))}
              searchable
              width={190}
            />
            <FilterSelect
              params={params}
              name="commission_payment_method"
              label="Commission paid"
              placeholder="Either way"
              data={METHOD_OPTIONS}
              width={170}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'insurer', many: 'insurers' }}
        query={companies}
        params={params}
        columns={columns}
        href={(company) => `/companies/${company.id}/edit`}
        card={(company) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{company.name}</Text>
              <PaymentMethodBadge method={company.commission_payment_method} />
            </Group>
            <Text fz="sm" c="dimmed" lineClamp={2}>
              {typesSold(company)}
            </Text>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconBuildingBank} title="No insurers yet" action={newCompany}>
            Add the insurance companies you place business with, the policy types each one sells and the
            commission it pays, so Coverdesk can work out what every policy earns you.
          </EmptyState>
        }
      />
    </Stack>
  );
}
