import { TEAM_ROLE_DESCRIPTIONS, TEAM_ROLES } from '@coverdesk/contract';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { RoleBadge } from './role-badge.js';

/** What each role may do, in the words of the one roles table. */
export function RolesCard() {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="roles-title">
      <Title order={2} fz="h4" id="roles-title" mb="sm">
        Roles
      </Title>
      <Stack gap="sm" component="dl" m={0}>
        {TEAM_ROLES.map((role) => (
          <Group key={role} gap="sm" wrap="nowrap" align="flex-start">
            <Text component="dt" w={84} style={{ flexShrink: 0 }}>
              <RoleBadge role={role} />
            </Text>
            <Text component="dd" fz="sm" m={0}>
              {TEAM_ROLE_DESCRIPTIONS[role]}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
