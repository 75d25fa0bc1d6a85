import { Anchor, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useRouteHandle } from '../route-handle.js';

/**
 * The screen of a module that has not landed yet: what it will do and the way back, inside the app
 * shell, so a signed-in broker who follows a menu entry or an old link is never sent off to the
 * public site.
 */
export function Component() {
  const screen = useRouteHandle();
  const Icon = screen.icon ?? IconTools;
  return (
    <Stack align="center" gap="md" py="xl" maw={520} mx="auto" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
        <Icon size={28} stroke={1.6} />
      </ThemeIcon>
      <Title order={2} fz="h3">
        This part of Coverdesk is on its way
      </Title>
      <Text c="dimmed">{screen.coming}</Text>
      <Button component={Link} to="/dashboard" mih={44}>
        Back to the dashboard
      </Button>
      <Text fz="sm" c="dimmed">
        Want it sooner, or need something else?{' '}
        <Anchor component={Link} to="/contact" fz="sm">
          Tell us
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
