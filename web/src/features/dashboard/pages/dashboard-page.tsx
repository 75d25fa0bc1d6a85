import { Alert, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingBank, IconFileCertificate, IconFlask, IconUsers } from '@tabler/icons-react';
import { useSession } from '../../../lib/session-context.js';

const NEXT_STEPS = [
  {
    icon: IconBuildingBank,
    title: 'Your insurers',
    text: 'List the companies you place business with, the policy types each sells and the commission each pays.',
  },
  {
    icon: IconUsers,
    title: 'Your customers',
    text: 'Bring in the people and businesses you insure, with their contact details and preferences.',
  },
  {
    icon: IconFileCertificate,
    title: 'Your policies',
    text: 'Record each policy once; Coverdesk splits the premium into instalments and tracks the commission.',
  },
];

/** The first screen after sign-in. Figures arrive here as the modules behind them do. */
export function Component() {
  const { state } = useSession();
  const user = state.user;
  if (!user) return null;
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
      <Title order={3} fz="h4">
        Setting up your agency
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {NEXT_STEPS.map((step) => (
          <Card key={step.title} withBorder padding="lg">
            <Group gap="sm" mb="xs" wrap="nowrap">
              <ThemeIcon variant="light" size={36} radius="md" aria-hidden>
                <step.icon size={20} />
              </ThemeIcon>
              <Text fw={600}>{step.title}</Text>
            </Group>
            <Text fz="sm" c="dimmed">
              {step.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
