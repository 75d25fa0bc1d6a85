import { Alert, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { errorText } from '../lib/error-message.js';

/** An empty list: what it is for, and the button that fills it. */
export function EmptyState(props: {
  icon: ComponentType<{ size?: number; stroke?: number }>;
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  const Icon = props.icon;
  return (
    <Card withBorder padding="xl">
      <Stack align="center" gap="sm" ta="center" py="lg">
        <ThemeIcon size={56} radius="xl" variant="light">
          <Icon size={30} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} fz="h4">
          {props.title}
        </Title>
        <Text c="dimmed" maw={460}>
          {props.children}
        </Text>
        {props.action}
      </Stack>
    </Card>
  );
}

/** A call that failed: what went wrong and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="This could not be loaded"
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{errorText(error)}</Text>
        <Button
          size="xs"
          variant="white"
          color="red"
          leftSection={<IconRefresh size={14} />}
          onClick={onRetry}
        >
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/** The shape of a page that is still loading: a summary card and a few sections. */
export function DetailSkeleton() {
  return (
    <Stack aria-busy="true" aria-label="Loading">
      <Skeleton h={120} radius="md" />
      <Group grow align="flex-start">
        <Skeleton h={220} radius="md" />
        <Skeleton h={220} radius="md" />
      </Group>
    </Stack>
  );
}
