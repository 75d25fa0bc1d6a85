import { Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  type Icon,
  IconBuildingBank,
  IconCash,
  IconCreditCard,
  IconDevices,
  IconFileText,
  IconHourglassHigh,
  IconPlayerPlay,
  IconRefresh,
  IconReportMoney,
  IconShieldLock,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { SCREENS, type Screen } from '../../../app/screens.js';
import { FeatureCard } from '../components/feature-card.js';

interface Module {
  icon: Icon;
  title: string;
  text: string;
}

interface Section {
  title: string;
  intro: string;
  modules: Module[];
}

/** What works today. A module joins here when it lands, and leaves the list of what is on its way. */
const SECTIONS: Section[] = [
  {
    title: 'Your book of business',
    intro: 'The records everything else is worked out from.',
    modules: [
      {
        icon: IconUsers,
        title: 'Customers',
        text: 'One record per customer, person or business: contact details, tags, status and the policies you hold for them. A customer already on file is flagged as you type.',
      },
      {
        icon: IconFileText,
        title: 'Policies and instalments',
        text: 'Record the insurer, type, dates and premium of each policy. Choose the number of instalments and Coverdesk splits the premium and gives each one a due date.',
      },
      {
        icon: IconCash,
        title: 'Payments',
        text: 'Record what a customer pays against each instalment, and correct or undo it. See at a glance what is paid, what is due and what is overdue.',
      },
    ],
  },
  {
    title: 'Insurers and what they owe you',
    intro: 'Commission worked out from your own rates and each insurer’s way of paying, not estimated.',
    modules: [
      {
        icon: IconBuildingBank,
        title: 'Insurers and commission rates',
        text: 'Keep the insurers you work with, the policy types each sells and its commission rate on each. Choose how each one pays you: on the full policy once it is paid, or pro rata as instalments are paid.',
      },
      {
        icon: IconReportMoney,
        title: 'Commission on every policy',
        text: 'Each policy shows the commission it earns and how much of it is received so far, correct to the cent; each insurer adds up its own.',
      },
    ],
  },
  {
    title: 'Renewals',
    intro: 'The policies that end soon, found and carried forward.',
    modules: [
      {
        icon: IconHourglassHigh,
        title: 'Expiring policies',
        text: 'Narrow your policies to those ending in the next 30, 60 or 90 days, so you can call the customer while the cover still runs.',
      },
      {
        icon: IconRefresh,
        title: 'Renewal in one step',
        text: 'Renew a policy and the new term, premium and instalments start from the old one; the two stay linked.',
      },
    ],
  },
  {
    title: 'Running Coverdesk',
    intro: 'Plans, administration and a way to look around first.',
    modules: [
      {
        icon: IconCreditCard,
        title: 'Trial and plans',
        text: 'A 14-day free trial of Professional with no card needed. Billing shows your plan, your trial and how much of the plan’s limits you use.',
      },
      {
        icon: IconShieldLock,
        title: 'Admin portal',
        text: 'For whoever runs a Coverdesk installation: the health of the platform and its database at a glance.',
      },
      {
        icon: IconPlayerPlay,
        title: 'Demo',
        text: 'A sample agency anyone can open with one click. It resets every day, so you can try everything without breaking anything.',
      },
      {
        icon: IconDevices,
        title: 'Desk and phone',
        text: 'A layout for the office screen and one for the phone, from the same account, with nothing to install.',
      },
    ],
  },
];

/** What is being built: the app's menu entries that still say "on its way", in menu order. */
const COMING: Module[] = (SCREENS as readonly Screen[])
  .filter((screen) => screen.coming && (screen.inSidebar || screen.inUserMenu))
  .map((screen) => ({ icon: screen.icon, title: screen.label ?? screen.title, text: screen.coming ?? '' }));

function SectionHeading({ title, intro }: { title: string; intro: string }) {
  return (
    <Stack gap={6}>
      <Title order={2}>{title}</Title>
      <Text c="gray.7" fz="lg">
        {intro}
      </Text>
    </Stack>
  );
}

/** Two or four cards read better as pairs than as a row of three with a gap. */
const columns = (count: number) => ({ base: 1, sm: 2, md: count % 3 === 0 ? 3 : 2 });

/** `/features`: every module, grouped by the part of the job it helps with. */
export function Component() {
  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap={56}>
        <Stack gap="md" maw={760}>
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Features
          </Title>
          <Text fz="lg">
            Coverdesk holds an insurance agency’s book: customers, policies, instalments, payments and the
            commission each policy earns. Here is what works today
            {COMING.length > 0 ? ', and what is on its way.' : '.'}
          </Text>
        </Stack>

        {SECTIONS.map((section) => (
          <Stack key={section.title} gap="lg" component="section">
            <SectionHeading title={section.title} intro={section.intro} />
            <SimpleGrid cols={columns(section.modules.length)} spacing="lg">
              {section.modules.map((module) => (
                <FeatureCard key={module.title} icon={module.icon} title={module.title}>
                  <Text c="gray.7">{module.text}</Text>
                </FeatureCard>
              ))}
            </SimpleGrid>
          </Stack>
        ))}

        {COMING.length > 0 && (
          <Stack gap="lg" component="section" id="on-its-way">
            <SectionHeading
              title="On its way"
              intro="Being built now, and not in the app yet. The analytics will come with the Professional and Agency plans."
            />
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
              {COMING.map((module) => (
                <FeatureCard key={module.title} icon={module.icon} title={module.title}>
                  <Text c="gray.7" fz="sm">
                    {module.text}
                  </Text>
                </FeatureCard>
              ))}
            </SimpleGrid>
          </Stack>
        )}

        <Stack gap="md" align="flex-start">
          <Title order={2}>Try it on your own book</Title>
          <Text fz="lg">Every plan starts with 14 days free. No card needed.</Text>
          <Group gap="sm">
            <Button component={Link} to="/register" size="lg">
              Start free trial
            </Button>
            <Button component={Link} to="/pricing" size="lg" variant="default">
              Compare plans
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Container>
  );
}
