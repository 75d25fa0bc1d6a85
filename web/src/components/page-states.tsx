import { MFA_REQUIRED_CODE } from '@coverdesk/contract';
import { Alert, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconRefresh, IconShieldLock } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { errorText } from '../lib/error-message.js';
import { mainAppUrl } from '../lib/hosts.js';
import { ApiError } from '../lib/http.js';

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

/** Where a detail page leads back to when its record is not there ("Back to policies"). */
export interface WayBack {
  to: string;
  label: string;
}

// The default red is too faint on white to read.
const ACTION = { size: 'xs', variant: 'white', color: 'red.9' } as const;

/**
 * A call that failed: what went wrong and a way to try again. A detail page's record that does not
 * exist (404, or an id that is not one: 400) would not be found the next time either, so with a
 * way back the page offers that instead.
 */
export function ErrorState({
  error,
  onRetry,
  back,
  title = 'This could not be loaded',
}: {
  error: unknown;
  onRetry: () => void;
  back?: WayBack;
  /** What failed, where the screen names it ("Failed to fetch usage metrics"). */
  title?: string;
}) {
  const missing = back && error instanceof ApiError && (error.status === 404 || error.status === 400);
  // The admin portal asks for a sign-in through both steps: it is turned on in the broker app's
  // profile settings, which the admin host does not serve.
  const twoStepNeeded =
    error instanceof ApiError && (error.body as { code?: string } | null)?.code === MFA_REQUIRED_CODE;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={missing ? 'Not found' : title}
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{errorText(error)}</Text>
        {twoStepNeeded ? (
          <Button
            component="a"
            href={mainAppUrl(window.location, '/profile/settings')}
            {...ACTION}
            leftSection={<IconShieldLock size={14} />}
          >
            Set up two-step sign-in
          </Button>
        ) : missing ? (
          <Button component={Link} to={back.to} {...ACTION} leftSection={<IconArrowLeft size={14} />}>
            {back.label}
          </Button>
        ) : (
          <Button {...ACTION} leftSection={<IconRefresh size={14} />} onClick={onRetry}>
            Try again
          </Button>
        )}
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
