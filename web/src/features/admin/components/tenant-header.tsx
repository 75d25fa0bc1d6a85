import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

const SECTIONS = [
  { path: '', label: 'Overview' },
  { path: '/subscription', label: 'Subscription' },
  { path: '/usage', label: 'Usage' },
] as const;

/** The agency's name, the way back to the list, and its three pages. */
export function TenantHeader({ tenantId, name }: { tenantId: string; name: string }) {
  const { pathname } = useLocation();
  const base = `/admin/tenants/${tenantId}`;
  return (
    <Stack gap="xs">
      <Anchor component={Link} to="/admin/tenants" fz="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          All agencies
        </Group>
      </Anchor>
      <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Title>
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
