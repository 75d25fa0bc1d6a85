import type { DemoLoginQuery } from '@coverdesk/contract';
import { Alert, Anchor, Button, type ButtonProps, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { preloadDashboard } from '../app/routes.js';
import { FALLBACK_ERROR } from '../lib/error-message.js';
import { ApiError } from '../lib/http.js';
import { usePublicSettings } from '../lib/public-settings.js';
import { useSession } from '../lib/session-context.js';

const DEMO_FALLBACK = 'Demo login failed. Please try again.';

/**
 * 404 and 503 say why the demo is unavailable; any other failure without a message of its own would
 * otherwise show the generic text, which says nothing about the demo.
 */
function demoErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const hasMessage = error.message !== FALLBACK_ERROR;
    return hasMessage || error.status === 404 || error.status === 503 ? error.message : DEMO_FALLBACK;
  }
  return error instanceof Error && error.message ? error.message : DEMO_FALLBACK;
}

export interface DemoLogin {
  start: (role?: DemoLoginQuery['role']) => Promise<void>;
  loading: boolean;
  error: string | null;
}

/** Signs into the sample agency and opens the dashboard. */
export function useDemoLogin(): DemoLogin {
  const { session } = useSession();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(role?: DemoLoginQuery['role']) {
    setLoading(true);
    setError(null);
    preloadDashboard();
    try {
      await session.demoLogin(role);
      navigate('/dashboard');
    } catch (caught) {
      setError(demoErrorMessage(caught));
    } finally {
      setLoading(false);
    }
  }

  return { start, loading, error };
}

type DemoButtonProps = Omit<ButtonProps, 'loading' | 'children'> & { label?: string };

/** The button alone, for a row of buttons whose error message belongs below the whole row; none while the demo is off. */
export function DemoButton({
  demo,
  label = 'Try the demo',
  ...buttonProps
}: DemoButtonProps & { demo: DemoLogin }) {
  if (!usePublicSettings().demo_available) return null;
  return (
    <Button
      variant="default"
      leftSection={<IconPlayerPlay size={18} aria-hidden />}
      {...buttonProps}
      loading={demo.loading}
      onClick={() => void demo.start()}
    >
      {label}
    </Button>
  );
}

/** Why the demo could not be opened, when it could not. */
export function DemoError({ demo }: { demo: DemoLogin }) {
  if (!demo.error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" maw={520}>
      Demo Error: {demo.error}
    </Alert>
  );
}

/**
 * "Try the demo", with the reason beneath it when the demo cannot be opened; nothing while it is off.
 * The demo agency's agent and viewer are a click away too, to see what those roles may do.
 */
export function TryDemoButton({ withRoles = false, ...props }: DemoButtonProps & { withRoles?: boolean }) {
  const demo = useDemoLogin();
  if (!usePublicSettings().demo_available) return null;
  return (
    <Stack gap="xs">
      <DemoButton demo={demo} {...props} />
      {withRoles && (
        <Text fz="sm" c="dimmed" ta="center">
          or try it as{' '}
          <Anchor component="button" type="button" fz="sm" onClick={() => void demo.start('agent')}>
            an agent
          </Anchor>{' '}
          or{' '}
          <Anchor component="button" type="button" fz="sm" onClick={() => void demo.start('viewer')}>
            a viewer
          </Anchor>
        </Text>
      )}
      <DemoError demo={demo} />
    </Stack>
  );
}
