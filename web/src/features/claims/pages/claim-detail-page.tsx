import { approvedAboveClaimed, CLAIM_TYPE_LABELS, type ClaimDetail } from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Menu,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconChevronDown } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DetailRow, Figure } from '../../../components/detail-figures.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { DocumentsPanel } from '../../documents/components/documents-panel.js';
import { useClaim, useDeleteClaim } from '../api.js';
import { ClaimProgress } from '../components/claim-progress.js';
import { ClaimStatusBadge } from '../components/claim-status-badge.js';
import { ClaimTimeline } from '../components/claim-timeline.js';
import { ClaimTransitions } from '../components/claim-transitions.js';

/** /claims/{id}: who and what, where it stands and the moves open to it, amounts, adjuster, timeline. */
export function Component() {
  const { id = '' } = useParams();
  const claim = useClaim(id);
  const canWork = useCan('work');
  if (claim.isPending) return <DetailSkeleton />;
  if (claim.isError)
    return (
      <ErrorState
        error={claim.error}
        onRetry={() => void claim.refetch()}
        back={{ to: '/claims', label: 'Back to claims' }}
      />
    );
  const c = claim.data;
  return (
    <Stack maw={1200}>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <div>
              <Group gap="sm">
                <Title order={2} fz="h3">
                  Claim {c.claim_number}
                </Title>
                <ClaimStatusBadge status={c.status} />
              </Group>
              <Text>
                <Anchor component={Link} to={`/customers/${c.customer.id}`}>
                  {c.customer.name}
                </Anchor>{' '}
                · policy{' '}
                <Anchor component={Link} to={`/policies/${c.policy.id}`}>
                  {c.policy.policy_number}
                </Anchor>{' '}
                · {c.company_name}
              </Text>
            </div>
            {canWork && <ClaimActions claim={c} />}
          </Group>
          <ClaimProgress claim={c} />
          {canWork && <ClaimTransitions claim={c} />}
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Figure label="Claimed">
              <Money amount={c.amount_claimed} />
            </Figure>
            <Figure label="Approved">
              {c.amount_approved === null ? '—' : <Money amount={c.amount_approved} />}
            </Figure>
            <Figure label="Paid by insurer">
              <Money amount={c.amount_paid} />
            </Figure>
            <Figure label="Incident">{formatDate(c.incident_date)}</Figure>
          </SimpleGrid>
          {approvedAboveClaimed(c) && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
              The approved amount is more than the amount claimed.
            </Alert>
          )}
        </Stack>
      </Card>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Details claim={c} />
            <Adjuster claim={c} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ClaimTimeline claim={c} />
        </Grid.Col>
      </Grid>
      <DocumentsPanel of={{ claim_id: c.id }} what="claim" />
    </Stack>
  );
}

function Details({ claim }: { claim: ClaimDetail }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Details
      </Title>
      <Stack gap={6}>
        <DetailRow label="Type">{CLAIM_TYPE_LABELS[claim.claim_type]}</DetailRow>
        <DetailRow label="Assigned to">{claim.assigned_to_name || 'No one'}</DetailRow>
        <DetailRow label="Incident">
          {formatDate(claim.incident_date)}
          {claim.incident_outside_term && (
            <Badge color="orange" ml="xs" miw="max-content">
              Outside the term
            </Badge>
          )}
        </DetailRow>
        <DetailRow label="Reported">{formatDate(claim.reported_date)}</DetailRow>
        {claim.location && <DetailRow label="Location">{claim.location}</DetailRow>}
        <DetailRow label="Insurer's reference">{claim.insurer_reference || '—'}</DetailRow>
        <DetailRow label="Policy term">
          {formatDate(claim.policy.start_date)} – {formatDate(claim.policy.end_date)}
        </DetailRow>
        {claim.closed_on && <DetailRow label="Closed">{formatDate(claim.closed_on)}</DetailRow>}
      </Stack>
      {claim.description && (
        <Text fz="sm" mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {claim.description}
        </Text>
      )}
    </Card>
  );
}

function Adjuster({ claim }: { claim: ClaimDetail }) {
  const known = claim.adjuster_name || claim.adjuster_phone || claim.adjuster_email;
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Adjuster
      </Title>
      {known ? (
        <Stack gap={4}>
          {claim.adjuster_name && <Text fw={600}>{claim.adjuster_name}</Text>}
          {claim.adjuster_phone && (
            <Anchor href={`tel:${claim.adjuster_phone.replace(/[^\d+]/g, '')}`} fz="sm">
              {claim.adjuster_phone}
            </Anchor>
          )}
          {claim.adjuster_email && (
            <Anchor href={`mailto:${claim.adjuster_email}`} fz="sm">
              {claim.adjuster_email}
            </Anchor>
          )}
        </Stack>
      ) : (
        <Text c="dimmed" fz="sm">
          No adjuster yet. Add the insurer's adjuster when one is assigned.
        </Text>
      )}
    </Card>
  );
}

/** Edit, and delete while the claim is open with nothing paid (which asks first). */
function ClaimActions({ claim }: { claim: ClaimDetail }) {
  const navigate = useNavigate();
  const [deleting, deleteDialog] = useDisclosure(false);
  const remove = useDeleteClaim(claim.id);
  const deletable = claim.status === 'open' && claim.amount_paid === '0.00';
  return (
    <>
      <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={14} aria-hidden />}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component={Link} to={`/claims/${claim.id}/edit`}>
            Edit
          </Menu.Item>
          {deletable && (
            <>
              <Menu.Divider />
              <Menu.Item c="red.9" onClick={deleteDialog.open}>
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <ConfirmDialog
        opened={deleting}
        onClose={deleteDialog.close}
        title={`Delete claim ${claim.claim_number} for ${claim.customer.name}?`}
        confirmLabel="Delete claim"
        busy={remove.isPending}
        error={remove.error?.message ?? null}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              notifications.show({ color: 'green', message: `Claim ${claim.claim_number} deleted.` });
              navigate('/claims');
            },
          })
        }
      >
        The claim and its timeline are removed. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
