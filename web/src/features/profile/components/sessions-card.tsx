import type { UserSession } from '@coverdesk/contract';
import { Badge, Box, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, formatTime } from '../../../lib/format.js';
import { useEndOtherSessions, useEndSession, useUserSessions } from '../api.js';

/** Each browser's name, and where its major version is written (Safari's is in `Version/`). */
const BROWSERS: [RegExp, string, RegExp][] = [
  [/Edg\//, 'Edge', /Edg\/(\d+)/],
  [/OPR\/|Opera/, 'Opera', /OPR\/(\d+)/],
  [/Firefox\//, 'Firefox', /Firefox\/(\d+)/],
  [/Chrome\/|CriOS\//, 'Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  [/Safari\//, 'Safari', /Version\/(\d+)/],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad/, 'iOS'],
  [/Android/, 'Android'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];
const nameIn = <T extends [RegExp, string, ...RegExp[]]>(agent: string, names: T[]) =>
  names.find(([pattern]) => pattern.test(agent));

/**
 * "Chrome 131 on macOS", from the browser's own description of itself: the version tells apart two
 * browsers of one machine more often than not.
 */
export function describeDevice(agent: string | null): string {
  if (!agent) return 'An unknown device';
  const found = nameIn(agent, BROWSERS);
  const version = found?.[2].exec(agent)?.[1];
  const browser = found && (version ? `${found[1]} ${version}` : found[1]);
  const system = nameIn(agent, SYSTEMS)?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'An app or script';
}

/** "27 Nov 2026, 14:05", in the reader's locale and time zone. */
const formatMoment = (iso: string) => `${formatDate(iso)}, ${formatTime(iso)}`;

const ROW_RULE = { borderBottom: '1px solid var(--mantine-color-default-border)' };

const isPhone = (agent: string | null) => /iPhone|Android.+Mobile/.test(agent ?? '');

/** Where the account is signed in: each session with its device, ended one by one or all but this one. */
export function SessionsCard() {
  const sessions = useUserSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<UserSession | null>(null);
  const [endingOthers, setEndingOthers] = useState(false);
  const others = sessions.data?.results.filter((session) => !session.current) ?? [];

  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb={4}>
        Where you are signed in
      </Title>
      <Text c="dimmed" fz="sm" mb="sm">
        End a session you do not recognise: it is signed out at once.
      </Text>
      {sessions.isPending ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading sessions">
          <Skeleton h={48} />
          <Skeleton h={48} />
        </Stack>
      ) : sessions.isError ? (
        <ErrorState error={sessions.error} onRetry={() => sessions.refetch()} />
      ) : (
        <Stack gap="xs">
          <Box component="ul" p={0} m={0} aria-label="Sessions" style={{ listStyle: 'none' }}>
            {sessions.data.results.map((session) => (
              <Box component="li" key={session.id} py="xs" style={ROW_RULE}>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="sm" wrap="nowrap" miw={0}>
                    {isPhone(session.user_agent) ? (
                      <IconDeviceMobile size={22} aria-hidden />
                    ) : (
                      <IconDeviceDesktop size={22} aria-hidden />
                    )}
                    <Stack gap={0} miw={0}>
                      <Group gap="xs">
                        <Text fz="sm" fw={600}>
                          {describeDevice(session.user_agent)}
                        </Text>
                        {session.current && (
                          <Badge size="sm" variant="light">
                            This device
                          </Badge>
                        )}
                      </Group>
                      <Text fz="xs" c="dimmed">
                        Signed in {formatMoment(session.created_at)}
                        {session.ip_address ? ` · ${session.ip_address}` : ''}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {session.current ? 'Active now' : `Last active ${formatMoment(session.last_used_at)}`}
                      </Text>
                    </Stack>
                  </Group>
                  {!session.current && (
                    <Button variant="default" size="xs" mih={36} onClick={() => setEnding(session)}>
                      End
                    </Button>
                  )}
                </Group>
              </Box>
            ))}
          </Box>
          {others.length === 0 ? (
            <Text fz="sm" c="dimmed">
              You are signed in on this device only.
            </Text>
          ) : (
            <Group>
              <Button variant="default" color="red" onClick={() => setEndingOthers(true)}>
                Sign out everywhere else
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <ConfirmDialog
        opened={ending !== null}
        title="End this session"
        confirmLabel="End session"
        busy={end.isPending}
        error={end.error ? errorText(end.error) : null}
        onClose={() => {
          end.reset();
          setEnding(null);
        }}
        onConfirm={() =>
          ending &&
          end.mutate(ending.id, {
            onSuccess: () => {
              notifications.show({
                color: 'green',
                message: `${describeDevice(ending.user_agent)} is signed out.`,
              });
              setEnding(null);
            },
          })
        }
      >
        {ending ? `${describeDevice(ending.user_agent)} is signed out at once and has to sign in again.` : ''}
      </ConfirmDialog>
      <ConfirmDialog
        opened={endingOthers}
        title="Sign out everywhere else"
        confirmLabel="Sign out the others"
        busy={endOthers.isPending}
        error={endOthers.error ? errorText(endOthers.error) : null}
        onClose={() => {
          endOthers.reset();
          setEndingOthers(false);
        }}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: (answer) => {
              notifications.show({ color: 'green', message: answer.detail });
              setEndingOthers(false);
            },
          })
        }
      >
        Every other device signed in to your account is signed out at once. This one stays signed in.
      </ConfirmDialog>
    </Card>
  );
}
