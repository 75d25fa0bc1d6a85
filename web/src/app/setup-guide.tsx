import type { SetupStatus } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingBank, IconCategory, IconCircleCheckFilled } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../lib/api-client.js';
import { useSession } from '../lib/session-context.js';
import { useCan } from '../lib/use-can.js';

/** The guide appears this long after a fresh sign-in (the spec's 1 s, then 800 ms). */
const GUIDE_DELAY_MS = 1000 + 800;
const HIDDEN_KEY = 'coverdesk.setup-guide.hidden';
/** When the check fails, both steps count as not done. */
const NOTHING_DONE: SetupStatus = { hasPolicyTypes: false, hasCompanies: false, isComplete: false };
/** The sign-ins (by their moment) the guide has been offered for. */
const offered = new Set<number>();

/**
 * The Welcome popup after a fresh sign-in: add policy types, then insurers with their commission.
 * Offered once per sign-in to owners and managers; never for platform admins, never once the broker said "Do not show this
 * again", and not when both steps are done.
 */
export function SetupGuide() {
  const { state } = useSession();
  const navigate = useNavigate();
  const [status, setStatus] = useState<SetupStatus | null>(null);
  const [opened, setOpened] = useState(false);
  const signedInAt = state.freshLoginAt;
  // Its steps (policy types, insurers) are the agency's settings: offered to those who may make them.
  const setsUp = useCan('agency_settings');
  const eligible =
    setsUp &&
    signedInAt !== null &&
    !offered.has(signedInAt) &&
    state.user !== null &&
    !state.user.is_admin &&
    localStorage.getItem(HIDDEN_KEY) !== '1';

  useEffect(() => {
    if (!eligible || signedInAt === null) return;
    let cancelled = false;
    const check = api.get<SetupStatus>('/setup/status/').catch(() => NOTHING_DONE);
    const timer = setTimeout(async () => {
      const found = await check;
      if (cancelled || found.isComplete) return;
      offered.add(signedInAt);
      setStatus(found);
      setOpened(true);
    }, GUIDE_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [eligible, signedInAt]);

  if (!status) return null;
  const close = () => setOpened(false);
  const go = (path: string) => {
    close();
    navigate(path);
  };
  const hideForGood = () => {
    localStorage.setItem(HIDDEN_KEY, '1');
    close();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Welcome to Coverdesk"
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} fz="h4">
            Basic setup
          </Title>
          <Text fz="sm" c="dimmed">
            Two steps before your first policy, so Coverdesk can work out the commission on everything you
            sell.
          </Text>
        </div>
        <SetupStep
          number={1}
          done={status.hasPolicyTypes}
          icon={IconCategory}
          title="Add policy types"
          action="Add policy types"
          onAction={() => go('/policy-types')}
        >
          The products your agency sells: motor, home, term life, travel…
        </SetupStep>
        <SetupStep
          number={2}
          done={status.hasCompanies}
          icon={IconBuildingBank}
          title="Add insurance companies"
          action="Add companies"
          onAction={() => go('/companies')}
        >
          Each insurer's name and (optionally) contact details, the policy types it sells with the commission
          % on each, and how it pays: Full Policy (the full commission once the full premium is paid) or Pro
          Rata (in proportion to the instalments paid).
        </SetupStep>
        <Group justify="space-between" gap="sm">
          <Button variant="subtle" color="gray" onClick={hideForGood}>
            Do not show this again
          </Button>
          <Button variant="default" onClick={close}>
            I'll do this later
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SetupStep(props: {
  number: number;
  done: boolean;
  icon: typeof IconCategory;
  title: string;
  action: string;
  onAction(): void;
  children: string;
}) {
  const Icon = props.icon;
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm">
      <ThemeIcon size={40} radius="xl" variant="light" color={props.done ? 'green' : 'indigo'} aria-hidden>
        {props.done ? <IconCircleCheckFilled size={22} /> : <Icon size={22} />}
      </ThemeIcon>
      <Stack gap={4} flex={1}>
        <Text fw={600}>
          Step {props.number}: {props.title}
          {props.done && (
            <Text span c="green.8" fz="sm" fw={500}>
              {' '}
              — done
            </Text>
          )}
        </Text>
        <Text fz="sm" c="dimmed">
          {props.children}
        </Text>
        <Group>
          <Button size="sm" variant={props.done ? 'default' : 'filled'} onClick={props.onAction}>
            {props.action}
          </Button>
        </Group>
      </Stack>
    </Group>
  );
}
