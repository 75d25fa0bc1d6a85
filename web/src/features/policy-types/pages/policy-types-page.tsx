import { POLICY_CATEGORIES, POLICY_CATEGORY_LABELS, type PolicyType } from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCategory, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { useListParams } from '../../../lib/list-params.js';
import { useCan } from '../../../lib/use-can.js';
import { usePolicyTypes } from '../api.js';
import { PolicyTypeStatus } from '../components/policy-type-status.js';

const FILTERS = ['category', 'is_active'] as const;
const CATEGORY_OPTIONS = POLICY_CATEGORIES.map((value) => ({ value, label: POLICY_CATEGORY_LABELS[value] }));
const STATUS_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

const columns: Column<PolicyType>[] = [
  { key: 'name', header: 'Name', sort: 'name', render: (type) => type.name },
  {
    key: 'category',
    header: 'Category',
    sort: 'category',
    render: (type) => POLICY_CATEGORY_LABELS[type.category],
  },
  { key: 'companies', header: 'Insurers selling it', numeric: true, render: (type) => type.companies_count },
  { key: 'status', header: 'Status', render: (type) => <PolicyTypeStatus active={type.is_active} /> },
];

export function Component() {
  const params = useListParams(FILTERS, 'name');
  const types = usePolicyTypes(params.query);
  const newType = useCan('agency_settings') && (
    <Button component={Link} to="/policy-types/create" leftSection={<IconPlus size={16} aria-hidden />}>
      New policy type
    </Button>
  );

  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search policy types"
        action={newType}
        filters={
          <>
            <FilterSelect
              params={params}
              name="category"
              label="Category"
              placeholder="All categories"
              data={CATEGORY_OPTIONS}
              width={170}
            />
            <FilterSelect
              params={params}
              name="is_active"
              label="Status"
              placeholder="Any status"
              data={STATUS_OPTIONS}
              width={150}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'policy type', many: 'policy types' }}
        query={types}
        params={params}
        columns={columns}
        href={(type) => `/policy-types/${type.id}/edit`}
        card={(type) => (
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text fw={600}>{type.name}</Text>
              <Text fz="sm" c="dimmed">
                {POLICY_CATEGORY_LABELS[type.category]} · {type.companies_count}{' '}
                {type.companies_count === 1 ? 'insurer' : 'insurers'}
              </Text>
            </div>
            <PolicyTypeStatus active={type.is_active} />
          </Group>
        )}
        empty={
          <EmptyState icon={IconCategory} title="No policy types yet" action={newType}>
            Policy types are the products your agency sells — motor, home, term life. Add them here, then
            choose which insurers sell each one and at what commission.
          </EmptyState>
        }
      />
    </Stack>
  );
}
