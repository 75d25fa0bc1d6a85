import type { SubscriptionState } from '@coverdesk/contract';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { termText } from './labels.js';

const SECTIONS = [
  { path: '', label: 'Overview' },
  { path: '/subscription', label: 'Subscription' },
  { path: '/usage', label: 'Usage' },
] as const;

/** The agency's name, when its trial or paid period ends, the way back to the list, and its three pages. */
export function TenantHeader({
  tenantId,
  name,
  subscription,
}: {
  tenantId: string;
  name: string;
  subscription: SubscriptionState | null;
}) {
  const term = subscription && termText(subscription);
  const { pathname } = useLocation();
  const base = `/admin/tenants/${tenantId}`;
  return (
    <Stack gap="xs">
      <BackLink to="/admin/tenants">All agencies</BackLink>
      <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Title>
      {term && (
        <Text c="dimmed" fz="sm" mt={-8}>
          {term}
        </Text>
      )}
      <Group gap="xs" component="nav" aria-label="Agency pages">
        {SECTIONS.map((section) => {
          const to = `${base}${section.path}`;
          const current = pathname.replace(/\/$/, '') === to;
          return (
            <Button
              key={section.label}
              component={Link}
              to={to}
              size="sm"
              variant={current ? 'filled' : 'default'}
              aria-current={current ? 'page' : undefined}
            >
              {section.label}
            </Button>
          );
        })}
      </Group>
    </Stack>
  );
}

export function Muted({ children }: { children: string }) {
  return <Text c="dimmed">{children}</Text>;
}
