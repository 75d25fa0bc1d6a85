import { Badge, Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  type Icon,
  IconBellRinging,
  IconBuildingBank,
  IconCalendarEvent,
  IconCash,
  IconChartLine,
  IconChartPie,
  IconCreditCard,
  IconDevices,
  IconFileText,
  IconFirstAidKit,
  IconHourglassHigh,
  IconPlayerPlay,
  IconReportMoney,
  IconShieldLock,
  IconTargetArrow,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { FeatureCard } from '../components/feature-card.js';

interface Module {
  icon: Icon;
  title: string;
  text: string;
}

interface Section {
  title: string;
  intro: string;
  badge?: string;
  modules: Module[];
}

const SECTIONS: Section[] = [
  {
    title: 'Your book of business',
    intro: 'The records everything else is worked out from.',
    modules: [
      {
        icon: IconUsers,
        title: 'Customers',
        text: 'One record per customer: contact details and everything you hold for them, from policies and instalments to payments and claims.',
      },
      {
        icon: IconFileText,
        title: 'Policies and instalments',
        text: 'Record the insurer, type, dates and premium of each policy. Choose the number of instalments and Coverdesk splits the premium and gives each one a due date.',
      },
      {
        icon: IconCash,
        title: 'Payments',
        text: 'Record what a customer pays against each instalment. See at a glance what is paid, what is due this month and what is overdue.',
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
        text: 'Keep the insurers you work with and their commission rates. Choose how each one pays you: on the full policy when it is written, or pro-rata as instalments are paid.',
      },
      {
        icon: IconReportMoney,
        title: 'Commission reports',
        text: 'Commission per insurer for any period, correct to the cent and following each insurer’s payout method. Hold it against the insurer’s statement and see what is missing.',
      },
    ],
  },
  {
    title: 'Dates you cannot miss',
    intro: 'Renewals and due dates come to you; you do not have to go looking.',
    modules: [
      {
        icon: IconHourglassHigh,
        title: 'Expiring policies and renewals',
        text: 'Policies that end soon, listed before they lapse, so you can offer the renewal while the customer is still yours.',
      },
      {
        icon: IconCalendarEvent,
        title: 'Calendar',
        text: 'Renewals, due instalments and your own appointments on one calendar, so you can plan the week around them.',
      },
      {
        icon: IconBellRinging,
        title: 'Notifications',
        text: 'A notice when a policy is about to expire or an instalment falls due, in the app on your desk and on your phone.',
      },
    ],
  },
  {
    title: 'New business and claims',
    intro: 'Follow the work that happens between renewals.',
    modules: [
      {
        icon: IconTargetArrow,
        title: 'Leads',
        text: 'Keep prospects and where each conversation stands. When a lead signs, turn them into a customer without typing their details again.',
      },
      {
        icon: IconFirstAidKit,
        title: 'Claims',
        text: 'Log a claim against the policy it belongs to and follow it to settlement, so you can answer when the customer calls.',
      },
    ],
  },
  {
    title: 'Analytics',
    intro: 'See the shape of your book and how it is changing.',
    badge: 'Professional and Agency plans',
    modules: [
      {
        icon: IconUsersGroup,
        title: 'Customer Analytics',
        text: 'Which customers bring the most premium and commission, and who holds a single policy you could add to.',
      },
      {
        icon: IconChartPie,
        title: 'Current Portfolio',
        text: 'Your book as it stands today: active policies and premium by insurer and by type of cover.',
      },
      {
        icon: IconChartLine,
        title: 'Portfolio History',
        text: 'How your book has grown over time, month by month, so you can see a trend before it shows in your income.',
      },
    ],
  },
  {
    title: 'Running Coverdesk',
    intro: 'Plans, administration and a way to look around first.',
    modules: [
      {
        icon: IconCreditCard,
        title: 'Billing and plans',
        text: 'A 14-day free trial of Professional with no card needed. Then choose Starter, Professional or Agency, paid monthly or yearly, from Billing.',
      },
      {
        icon: IconShieldLock,
        title: 'Admin portal',
        text: 'For whoever runs a Coverdesk installation: agencies, subscriptions and plans, and the messages sent from the contact form.',
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

function SectionHeading({ title, intro, badge }: { title: string; intro: string; badge?: string }) {
  return (
    <Stack gap={6}>
      <Group gap="sm">
        <Title order={2}>{title}</Title>
        {badge && (
          <Badge variant="light" size="lg" radius="sm">
            {badge}
          </Badge>
        )}
      </Group>
      <Text c="gray.7" fz="lg">
        {intro}
      </Text>
    </Stack>
  );
}

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
            Coverdesk covers the daily work of an insurance agency, from the first call with a lead to the
            commission on the renewal. Here is what each part does.
          </Text>
        </Stack>

        {SECTIONS.map((section) => (
          <Stack key={section.title} gap="lg" component="section">
            <SectionHeading title={section.title} intro={section.intro} badge={section.badge} />
            {/* Two or four cards read better as pairs than as a row of three with a gap. */}
            <SimpleGrid cols={{ base: 1, sm: 2, md: section.modules.length % 3 === 0 ? 3 : 2 }} spacing="lg">
              {section.modules.map((module) => (
                <FeatureCard key={module.title} icon={module.icon} title={module.title}>
                  <Text c="gray.7">{module.text}</Text>
                </FeatureCard>
              ))}
            </SimpleGrid>
          </Stack>
        ))}

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
