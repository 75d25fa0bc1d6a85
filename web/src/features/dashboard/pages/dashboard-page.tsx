import {
  Alert,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCircleCheckFilled, IconFlask } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAccess } from '../../../app/access.js';
import { type Screen, screenAt } from '../../../app/screens.js';
import { useSession } from '../../../lib/session-context.js';
import { type AgencySetup, useAgencySetup } from '../api.js';

interface SetupStep {
  done: keyof AgencySetup;
  /** What the step is about ("insurers"), and the screen that lists it. */
  noun: string;
  screen: Screen;
  text: string;
  action: string;
  to: string;
}

const SETUP_STEPS: SetupStep[] = [
  {
    done: 'insurers',
    noun: 'insurers',
    screen: screenAt('/companies'),
    text: 'List the companies you place business with, the policy types each sells and the commission each pays.',
    action: 'Add an insurer',
    to: '/companies/create',
  },
  {
    done: 'customers',
    noun: 'customers',
    screen: screenAt('/customers'),
    text: 'Bring in the people and businesses you insure, with their contact details and preferences.',
    action: 'Add a customer',
    to: '/customers/create',
  },
  {
    done: 'policies',
    noun: 'policies',
    screen: screenAt('/policies'),
    text: 'Record each policy once; Coverdesk splits the premium into instalments and tracks the commission.',
    action: 'Record a policy',
    to: '/policies/create',
  },
];

/** Where a set-up agency's day starts, until the dashboard has figures of its own. */
const DAILY_SCREENS = [screenAt('/policies'), screenAt('/customers'), screenAt('/payments')];

/**
 * The first screen after sign-in: the setup steps until the agency has insurers, customers and
 * policies, then the way to the daily screens. Figures arrive here as the modules behind them do.
 */
export function Component() {
  const { state } = useSession();
  const setup = useAgencySetup();
  const user = state.user;
  if (!user) return null;
  // A failed check hides nothing: the daily screens are the useful fallback.
  const settingUp = setup.data && !(setup.data.insurers && setup.data.customers && setup.data.policies);
  return (
    <Stack maw={1100}>
      <div>
        <Title order={2}>Good to see you, {user.first_name || 'there'}.</Title>
        <Text c="dimmed">{user.company_name}</Text>
      </div>
      {user.is_demo_user && (
        <Alert color="violet" variant="light" icon={<IconFlask size={18} />}>
          This sample agency is yours to explore. Change anything you like: it resets every night.
        </Alert>
      )}
      {setup.isPending ? (
        <Skeleton h={180} radius="md" aria-label="Loading" />
      ) : settingUp ? (
        <SetupSteps setup={setup.data} />
      ) : (
        <DailyScreens />
      )}
    </Stack>
  );
}

function SetupSteps({ setup }: { setup: AgencySetup }) {
  return (
    <>
      <Title order={3} fz="h4">
        Setting up your agency
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {SETUP_STEPS.map((step) => {
          const done = setup[step.done];
          return (
            <Card key={step.to} withBorder padding="lg">
              <Stack gap="xs" h="100%">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon
                    variant="light"
                    size={36}
                    radius="md"
                    color={done ? 'green' : undefined}
                    aria-hidden
                  >
                    {done ? <IconCircleCheckFilled size={20} /> : <step.screen.icon size={20} />}
                  </ThemeIcon>
                  <Text fw={600}>
                    Your {step.noun}
                    {done && (
                      <Text span c="green.9" fz="sm" fw={500}>
                        {' '}
                        — done
                      </Text>
                    )}
                  </Text>
                </Group>
                <Text fz="sm" c="dimmed" flex={1}>
                  {step.text}
                </Text>
                <Group>
                  <Button
                    component={Link}
                    to={done ? step.screen.path : step.to}
                    variant={done ? 'default' : 'filled'}
                    mih={44}
                  >
                    {done ? `See your ${step.noun}` : step.action}
                  </Button>
                </Group>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}

function DailyScreens() {
  const access = useAccess();
  return (
    <>
      <Text>A summary of your book is coming to this page. Until then, your day starts here:</Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {DAILY_SCREENS.filter((screen) => access.canOpen(screen.module)).map((screen) => (
          <Card key={screen.path} withBorder padding="lg" component={Link} to={screen.path} mih={44}>
            <Group gap="sm" wrap="nowrap" mb="xs">
              <ThemeIcon variant="light" size={36} radius="md" aria-hidden>
                <screen.icon size={20} />
              </ThemeIcon>
              <Text fw={600}>{screen.title}</Text>
            </Group>
            <Text fz="sm" c="dimmed">
              {screen.subtitle}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
