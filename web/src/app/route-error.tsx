import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useRouteError } from 'react-router';
import { PageLoader } from './guards/page-loader.js';
import { reloadForNewVersion } from './stale-code.js';

/**
 * When a screen fails to load or render: say so and offer a way back. A screen whose code is gone
 * because a new version was deployed reloads once instead (stale-code.ts).
 */
export function RouteError() {
  const error = useRouteError();
  // Decided once, on the first render: the reload is under way while the loader shows.
  const [reloading] = useState(() => reloadForNewVersion(error));
  if (reloading) return <PageLoader />;
  return (
    <Center mih="80vh" p="md">
      <Stack align="center" ta="center" maw={420}>
        <Title order={2}>Something went wrong</Title>
        <Text c="dimmed">This screen could not be shown. Reload to try again; your data is safe.</Text>
        <Button onClick={() => window.location.reload()}>Try again</Button>
      </Stack>
    </Center>
  );
}
