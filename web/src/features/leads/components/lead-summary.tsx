import { LEAD_SOURCE_LABELS, type LeadDetail } from '@coverdesk/contract';
import {
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Modal,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconPencil, IconTrash, IconUserCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DetailField } from '../../../components/detail-field.js';
import { FormError } from '../../../components/form-error.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useConvertLead, useDeleteLead } from '../api.js';
import { formatMoment, isOverdue } from './lead-labels.js';
import { MoveMenu, useLeadMover } from './lead-mover.js';
import { LeadStatusBadge } from './lead-status-badge.js';

/** The top of a lead's page: who, where they stand, the figures, and what can be done. */
export function LeadSummary({ lead }: { lead: LeadDetail }) {
  const { move, dialog } = useLeadMover();
  const canWork = useCan('work');
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const overdue = isOverdue(lead);
  const linkStyle = touch ? { display: 'inline-flex', alignItems: 'center', minHeight: 44 } : undefined;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} miw={0}>
          <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
            {lead.display_name}
          </Title>
          {lead.business_name && (lead.first_name || lead.last_name) && (
            <Text c="dimmed" fz="sm">
              Contact: {lead.first_name} {lead.last_name}
            </Text>
          )}
          <Group gap={6}>
            <LeadStatusBadge status={lead.status} />
            {lead.status === 'lost' && lead.lost_reason && (
              <Text fz="sm" c="dimmed">
                {lead.lost_reason}
              </Text>
            )}
          </Group>
        </Stack>
        {canWork && (
          <Group gap="xs">
            <MoveMenu lead={lead} onMove={(status) => move(lead, status)} />
            <ConvertButton lead={lead} />
            <LeadActions lead={lead} />
          </Group>
        )}
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mt="lg" mb={0}>
        <DetailField label="Email">
          {lead.email && (
            <Anchor href={`mailto:${lead.email}`} style={{ ...linkStyle, overflowWrap: 'anywhere' }}>
              {lead.email}
            </Anchor>
          )}
        </DetailField>
        <DetailField label="Phone">
          {lead.phone && (
            <Anchor href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`} style={linkStyle}>
              {lead.phone}
            </Anchor>
          )}
        </DetailField>
        <DetailField label="Source">{LEAD_SOURCE_LABELS[lead.source]}</DetailField>
        <DetailField label="Interested in">{lead.policy_type_name}</DetailField>
        <DetailField label="Estimated premium">
          {lead.estimated_premium && (
            <Text style={TABULAR_FIGURES}>
              <Money amount={lead.estimated_premium} />
            </Text>
          )}
        </DetailField>
        <DetailField label="Next follow-up" empty="None planned">
          {lead.next_follow_up_at && (
            <Text c={overdue ? 'red.9' : undefined} fw={overdue ? 600 : undefined}>
              {overdue && 'Overdue: '}
              {formatMoment(lead.next_follow_up_at)}
            </Text>
          )}
        </DetailField>
        <DetailField label="Assigned to" empty="Unassigned">
          {lead.assigned_user_name}
        </DetailField>
        <DetailField label="Added">{formatDate(lead.created_at)}</DetailField>
      </SimpleGrid>
      {lead.customer_id && (
        <Text fz="sm" mt="md">
          Converted into a customer:{' '}
          <Anchor component={Link} to={`/customers/${lead.customer_id}`} fw={600}>
            open their customer page
          </Anchor>{' '}
          ·{' '}
          <Anchor component={Link} to={newPolicyPath(lead, lead.customer_id)}>
            record a policy
          </Anchor>
        </Text>
      )}
      {dialog}
    </Card>
  );
}

/**
 * The new-policy form for the customer a lead became, with what the lead was interested in: its
 * type of cover and estimated premium.
 */
function newPolicyPath(lead: LeadDetail, customerId: string): string {
  const params = new URLSearchParams({ customer_id: customerId });
  if (lead.policy_type_id) params.set('policy_type_id', lead.policy_type_id);
  if (lead.estimated_premium) params.set('total_premium', lead.estimated_premium);
  return `/policies/create?${params}`;
}

/** The choice meaning "make a new customer from the lead" rather than link to a matching one. */
const NEW_CUSTOMER = 'new';

/**
 * Turns the lead into a customer (marking it won); then, by default, opens the new-policy form for
 * that customer. When customers with the same email or phone exist, the broker chooses between
 * linking the lead to one of them (the first by default) and making a new customer, so the same
 * person is not entered twice. A converted lead has its customer already, so the button is not
 * offered again.
 */
function ConvertButton({ lead }: { lead: LeadDetail }) {
  const navigate = useNavigate();
  const convert = useConvertLead(lead.id);
  const [opened, { open, close }] = useDisclosure(false);
  const [recordPolicy, setRecordPolicy] = useState(true);
  const customers = lead.matches.filter((match) => match.kind === 'customer');
  const [choice, setChoice] = useState(NEW_CUSTOMER);
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  if (lead.customer_id) return null;
  const linking = choice !== NEW_CUSTOMER;
  const confirm = () =>
    convert.mutate(linking ? choice : undefined, {
      onSuccess: ({ customer, created }) => {
        notifications.show({
          color: 'green',
          message: created
            ? `${customer.display_name} is now a customer.`
            : `${lead.display_name} is linked to the customer ${customer.display_name}.`,
        });
        close();
        navigate(recordPolicy ? newPolicyPath(lead, customer.id) : `/customers/${customer.id}`);
      },
    });
  return (
    <>
      <Button
        size="xs"
        mih={touch}
        leftSection={<IconUserCheck size={14} aria-hidden />}
        onClick={() => {
          convert.reset();
          setChoice(customers[0]?.id ?? NEW_CUSTOMER);
          open();
        }}
      >
        Convert to customer
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={`Convert ${lead.display_name} into a customer?`}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          {customers.length > 0 && (
            <Radio.Group
              label={
                customers.length === 1
                  ? 'A customer with the same details exists already'
                  : 'Customers with the same details exist already'
              }
              value={choice}
              onChange={(value) => {
                convert.reset();
                setChoice(value);
              }}
            >
              <Stack gap="sm" mt="xs">
                {customers.map((customer) => (
                  <Radio
                    key={customer.id}
                    value={customer.id}
                    label={`Link to ${customer.display_name}`}
                    description={[customer.email, customer.phone].filter(Boolean).join(' · ')}
                    styles={{
                      label: { overflowWrap: 'anywhere' },
                      description: { overflowWrap: 'anywhere' },
                    }}
                  />
                ))}
                <Radio value={NEW_CUSTOMER} label="Create a new customer" />
              </Stack>
            </Radio.Group>
          )}
          <Text fz="sm">
            {linking
              ? "The lead is marked won and linked to this customer; the customer's details stay as they are."
              : 'A customer is added with their name, email, phone and notes, and the lead is marked won. The lead stays linked to the customer.'}
          </Text>
          <Checkbox
            label="Record their first policy next"
            checked={recordPolicy}
            onChange={(event) => setRecordPolicy(event.currentTarget.checked)}
          />
          <FormError message={convert.error ? errorText(convert.error) : null} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={convert.isPending} onClick={confirm}>
              {linking ? 'Link and convert' : 'Convert'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** Edit and Delete in one menu; deleting asks first, naming the lead. */
function LeadActions({ lead }: { lead: LeadDetail }) {
  const navigate = useNavigate();
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const remove = useDeleteLead();
  const [confirming, { open, close }] = useDisclosure(false);
  const confirm = () =>
    remove.mutate(lead.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `${lead.display_name} deleted.` });
        navigate('/leads');
      },
    });
  return (
    <>
      <Menu position="bottom-end" width={180} withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            mih={touch}
          >
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            component={Link}
            to={`/leads/${lead.id}/edit`}
            leftSection={<IconPencil size={16} aria-hidden />}
            mih={touch}
          >
            Edit
          </Menu.Item>
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
        title={`Delete lead ${lead.display_name}?`}
        confirmLabel="Delete lead"
        busy={remove.isPending}
        error={remove.error ? errorText(remove.error) : null}
        onConfirm={confirm}
      >
        {lead.customer_id
          ? 'The lead and its timeline will be removed; the customer it became stays. This cannot be undone.'
          : 'The lead, its notes and its timeline will be removed. This cannot be undone.'}
      </ConfirmDialog>
    </>
  );
}
