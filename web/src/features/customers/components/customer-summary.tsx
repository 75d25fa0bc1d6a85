import { CONTACT_CHANNEL_LABELS, CUSTOMER_TYPE_LABELS, type CustomerDetail } from '@coverdesk/contract';
import { Anchor, Button, Card, Group, Menu, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBuilding, IconChevronDown, IconPencil, IconTrash, IconUser } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DetailField } from '../../../components/detail-field.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useCustomerLead, useDeleteCustomer } from '../api.js';
import { CustomerStatusBadge } from './customer-status.js';
import { CustomerTags } from './customer-tags.js';

/** The top of a customer's page: who they are, their status and tags, and what can be done. */
export function CustomerSummary({ customer }: { customer: CustomerDetail }) {
  const business = customer.customer_type === 'business';
  const canWork = useCan('work');
  const TypeIcon = business ? IconBuilding : IconUser;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="md" wrap="nowrap" align="flex-start" miw={0}>
          <ThemeIcon size={48} radius="xl" variant="light" visibleFrom="xs">
            <TypeIcon size={26} stroke={1.6} aria-hidden />
          </ThemeIcon>
          <Stack gap={6} miw={0}>
            <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
              {customer.display_name}
            </Title>
            <Text c="dimmed" fz="sm">
              {CUSTOMER_TYPE_LABELS[customer.customer_type]}
              {business && ` · Contact: ${customer.first_name} ${customer.last_name}`}
            </Text>
            <Group gap={6}>
              <CustomerStatusBadge status={customer.status} />
              <CustomerTags tags={customer.tags} />
            </Group>
          </Stack>
        </Group>
        {canWork && <CustomerActions customer={customer} />}
      </Group>
      <SimpleGrid component="dl" cols={2} spacing="md" mt="lg" mb={0} maw={480}>
        <DetailField label="Preferred contact">
          {CONTACT_CHANNEL_LABELS[customer.preferred_contact]}
        </DetailField>
        <DetailField label="Customer since">{formatDate(customer.created_at)}</DetailField>
        <DetailField label="Assigned to" empty="No one">
          {customer.assigned_to_name}
        </DetailField>
        <CameFrom customerId={customer.id} />
      </SimpleGrid>
    </Card>
  );
}

/** The lead the customer was converted from, when there was one. */
function CameFrom({ customerId }: { customerId: string }) {
  const lead = useCustomerLead(customerId);
  if (!lead.data) return null;
  return (
    <DetailField label="Came from lead">
      <Anchor component={Link} to={`/leads/${lead.data.id}`}>
        {lead.data.display_name}
      </Anchor>{' '}
      <Text component="span" fz="sm" c="dimmed">
        (added {formatDate(lead.data.created_at)})
      </Text>
    </DetailField>
  );
}

/**
 * Edit and Delete in one menu; deleting asks first, naming the customer. A customer with policies
 * cannot be deleted (the API refuses), so the dialog says so before the click and leads to them.
 */
function CustomerActions({ customer }: { customer: CustomerDetail }) {
  const navigate = useNavigate();
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const remove = useDeleteCustomer();
  const [confirming, { open, close }] = useDisclosure(false);
  const policies = customer.policy_count;

  const confirm = () =>
    remove.mutate(customer.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${customer.display_name} deleted.` });
        navigate('/customers');
      },
    });

  return (
    <>
      {/* Without the focus placeholder the menu holds only menu items, as its role requires. */}
      <Menu position="bottom-end" width={180} withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />} mih={touch}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            component={Link}
            to={`/customers/${customer.id}/edit`}
            leftSection={<IconPencil size={16} aria-hidden />}
            mih={touch}
          >
            Edit
          </Menu.Item>
          {/* The default red of a menu item is too faint on white to read. */}
          <Menu.Item
            color="red.9"
            leftSection={<IconTrash size={16} aria-hidden />}
            mih={touch}
            onClick={() => {
              remove.reset();
              open();
            }}
          >
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Delete customer ${customer.display_name}?`}
        confirmLabel="Delete customer"
        busy={remove.isPending}
        error={remove.error ? errorText(remove.error) : null}
        confirmDisabled={policies > 0}
        onConfirm={confirm}
      >
        {policies > 0 ? (
          <>
            {customer.display_name} has{' '}
            {policies === 1
              ? '1 policy: delete or move it first.'
              : `${policies} policies: delete or move them first.`}{' '}
            <Anchor component={Link} to={`/policies?customer_id=${customer.id}`} inherit>
              {policies === 1 ? 'Open the policy' : `Open the ${policies} policies`}
            </Anchor>
          </>
        ) : (
          'Their contact details, tags and notes will be removed. This cannot be undone.'
        )}
      </ConfirmDialog>
    </>
  );
}
