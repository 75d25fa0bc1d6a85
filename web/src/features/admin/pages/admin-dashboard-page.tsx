import type { Health } from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../../lib/api-client.js';
import { ApiError } from '../../../lib/http.js';

/** The admin portal's first screen: is the platform healthy. */
export function Component() {
  const health = useQuery({
    queryKey: ['dashboard', 'health'],
    // A degraded platform answers 503 with the same body: show it rather than an error.
    queryFn: () =>
      api.get<Health>('/health/', { retry: false }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 503) return error.body as Health;
        throw error;
      }),
  });

  return (
    <Stack maw={1100}>
      <Title order={2} fz="h3">
        Platform health
      </Title>
      {health.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Skeleton h={96} />
          <Skeleton h={96} />
        </SimpleGrid>
      ) : health.isError ? (
        <Alert color="red" variant="light" title="The health check did not answer">
          <Button size="xs" variant="light" mt="xs" onClick={() => void health.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Card withBorder padding="lg">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              Database
            </Text>
            <Group gap="xs" mt={4}>
              <Text fz="xl" fw={700}>
                {health.data.database === 'ok' ? 'Reachable' : 'Unavailable'}
              </Text>
              <Badge color={health.data.database === 'ok' ? 'green' : 'red'}>{health.data.status}</Badge>
            </Group>
          </Card>
          <Card withBorder padding="lg">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              Migrations
            </Text>
            <Text fz="xl" fw={700} mt={4}>
              {health.data.migrations.applied} of {health.data.migrations.expected} applied
            </Text>
          </Card>
        </SimpleGrid>
      )}
      <Title order={2} fz="h3">
        Diagnostics for your agency
      </Title>
      <Group gap="md">
        <Anchor component={Link} to="/performance-test">
          Performance test
        </Anchor>
        <Anchor component={Link} to="/commission-aggregation-test">
          Commission aggregation test
        </Anchor>
        <Anchor component={Link} to="/analytics-summaries-test">
          Analytics summaries test
        </Anchor>
      </Group>
      <Text c="dimmed" fz="sm">
        The API reference is at{' '}
        <Anchor href="/api/docs" fz="sm">
          /api/docs
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
