import type { Customer } from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { ImportButton } from '../../../components/import-button.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { MineFilter, useBulkReassign } from '../../team/components/assignee.js';
import { useCustomers } from '../api.js';
import { CUSTOMER_STATUS_OPTIONS, CUSTOMER_TYPE_OPTIONS } from '../components/customer-labels.js';
import { CustomerStatusBadge } from '../components/customer-status.js';
import { CustomerTags } from '../components/customer-tags.js';
import { TagFilter } from '../components/tag-filter.js';

const FILTERS = ['status', 'customer_type', 'tag', 'assigned_to'] as const;
/** A row shows this many tags; the rest are counted. */
const ROW_TAGS = 3;

const contactName = (customer: Customer) => `${customer.first_name} ${customer.last_name}`;

const columns: Column<Customer>[] = [
  {
    key: 'name',
    header: 'Name',
    sort: 'name',
    render: (customer) =>
      customer.customer_type === 'business' ? (
        <>
          {customer.display_name}
          <br />
          {/* An inline block keeps the link's underline off the contact line. */}
          <Text component="span" fz="xs" fw={400} c="dimmed" display="inline-block">
            Contact: {contactName(customer)}
          </Text>
        </>
      ) : (
        customer.display_name
      ),
  },
  {
    key: 'email',
    header: 'Email',
    render: (customer) => customer.email,
  },
  { key: 'phone', header: 'Phone', render: (customer) => customer.phone },
  { key: 'city', header: 'City', sort: 'city', render: (customer) => customer.city },
  { key: 'tags', header: 'Tags', render: (customer) => <CustomerTags tags={customer.tags} max={ROW_TAGS} /> },
  {
    key: 'added',
    header: 'Added',
    sort: 'created_at',
    render: (customer) => formatDate(customer.created_at),
  },
  { key: 'status', header: 'Status', render: (customer) => <CustomerStatusBadge status={customer.status} /> },
  {
    key: 'assigned_to',
    header: 'Assigned to',
    render: (customer) => customer.assigned_to_name,
  },
];

export function Component() {
  const params = useListParams(FILTERS, 'name');
  const customers = useCustomers(params.query);
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const canWork = useCan('work');
  const reassign = useBulkReassign<Customer>({
    kind: 'customer_ids',
    noun: { one: 'customer', many: 'customers' },
    name: (customer) => customer.display_name,
  });
  const newCustomer = canWork && (
    <Button
      component={Link}
      to="/customers/create"
      leftSection={<IconPlus size={16} aria-hidden />}
      mih={touch}
    >
      New customer
    </Button>
  );

  return (
    <Stack>
      <ListToolbar
        params={params}
        exportMenu={
          <ExportMenu
            path="/customers/export/"
            list="customers"
            query={params.exportQuery}
            disabled={customers.data?.count === 0}
          />
        }
        searchLabel="Search customers"
        action={reassign.actions(canWork && <ImportButton kind="customers" />, newCustomer)}
        filters={
          <>
            <MineFilter
              value={params.filters.assigned_to}
              onChange={(assigned_to) => params.set({ assigned_to })}
            />
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={CUSTOMER_STATUS_OPTIONS}
              width={140}
            />
            <FilterSelect
              params={params}
              name="customer_type"
              label="Type"
              placeholder="All types"
              data={CUSTOMER_TYPE_OPTIONS}
              width={140}
            />
            <TagFilter value={params.filters.tag ?? ''} onChange={(tag) => params.set({ tag })} />
          </>
        }
      />
      <DataList
        noun={{ one: 'customer', many: 'customers' }}
        query={customers}
        params={params}
        columns={reassign.columns(columns)}
        href={(customer) => `/customers/${customer.id}`}
        {...reassign.listProps}
        card={(customer) => (
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} miw={0}>
              <Text fw={600} truncate>
                {customer.display_name}
              </Text>
              {[customer.phone, customer.email].filter(Boolean).map((detail) => (
                <Text key={detail} fz="sm" c="dimmed" truncate>
                  {detail}
                </Text>
              ))}
            </Stack>
            <CustomerStatusBadge status={customer.status} />
          </Group>
        )}
        empty={
          <EmptyState
            icon={IconUsers}
            title="No customers yet"
            action={
              canWork && (
                <Button
                  component={Link}
                  to="/customers/create"
                  leftSection={<IconPlus size={16} aria-hidden />}
                  mih={touch}
                >
                  Add your first customer
                </Button>
              )
            }
          >
            Customers are the people and businesses you insure. Keep their contact details here, and every
            policy, payment and claim you record will be filed under them.
          </EmptyState>
        }
      />
    </Stack>
  );
}
