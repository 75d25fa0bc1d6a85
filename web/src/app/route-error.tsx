import { Button, Center, Stack, Text, Title } from '@mantine/core';

/** When a screen fails to load or render: say so and offer a way back. */
export function RouteError() {
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
