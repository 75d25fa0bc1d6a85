import { CONTACT_CHANNEL_LABELS, type Customer } from '@coverdesk/contract';
import { Button, Card, Group, Menu, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBuilding, IconChevronDown, IconPencil, IconTrash, IconUser } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { useDeleteCustomer } from '../api.js';
import { CUSTOMER_TYPE_LABELS } from './customer-labels.js';
import { CustomerStatusBadge } from './customer-status.js';
import { CustomerTags } from './customer-tags.js';
import { DetailField } from './detail-field.js';

/** The top of a customer's page: who they are, their status and tags, and what can be done. */
export function CustomerSummary({ customer }: { customer: Customer }) {
  const business = customer.customer_type === 'business';
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
        <CustomerActions customer={customer} />
      </Group>
      <SimpleGrid component="dl" cols={2} spacing="md" mt="lg" mb={0} maw={480}>
        <DetailField label="Preferred contact">
          {CONTACT_CHANNEL_LABELS[customer.preferred_contact]}
        </DetailField>
        <DetailField label="Customer since">{formatDate(customer.created_at)}</DetailField>
      </SimpleGrid>
    </Card>
  );
}

/** Edit and Delete in one menu; deleting asks first, naming the customer. */
function CustomerActions({ customer }: { customer: Customer }) {
  const navigate = useNavigate();
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const remove = useDeleteCustomer();
  const [confirming, { open, close }] = useDisclosure(false);

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
        onConfirm={confirm}
      >
        Their contact details, tags and notes will be removed. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
