import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Flex,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBrandOpenSource,
  IconBuildingBank,
  IconCalendarDue,
  IconCash,
  IconDatabase,
  IconDeviceMobile,
  IconHourglassHigh,
  IconRefresh,
  IconReportMoney,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { DemoButton, DemoError, useDemoLogin } from '../../../components/try-demo-button.js';
import { usePublicSettings } from '../../../lib/public-settings.js';
import { FeatureCard } from '../components/feature-card.js';

const FEATURES = [
  {
    icon: IconUsers,
    title: 'Customers and policies',
    text: 'Each customer with their policies, and each policy with its insurer, instalments and payments, instead of spread over files and inboxes.',
  },
  {
    icon: IconCash,
    title: 'Instalments split for you',
    text: 'Enter the premium and the number of instalments. Coverdesk splits it, gives each instalment a due date and shows what is paid, due and overdue.',
  },
  {
    icon: IconReportMoney,
    title: 'Commissions correct to the cent',
    text: 'Set each insurer’s rate and payout method, full policy or pro rata. Each policy shows what it earns and what is received so far; each insurer adds up its own.',
  },
  {
    icon: IconRefresh,
    title: 'Renewals in one step',
    text: 'Find the policies ending in the next 30, 60 or 90 days and renew each in one step, with the new term worked out for you.',
  },
  {
    icon: IconBuildingBank,
    title: 'Insurers and their products',
    text: 'Keep the insurers you work with, the policy types each sells and its commission rate on each, so every policy knows what it earns.',
  },
  {
    icon: IconDeviceMobile,
    title: 'On a phone between meetings',
    text: 'The same Coverdesk on the office screen and on your phone: look up a policy or record a payment from the car park.',
  },
];

const STEPS = [
  {
    title: 'Start a free trial',
    text: 'Create your agency in a minute. You get 14 days of the Professional plan with no card needed.',
  },
  {
    title: 'Add insurers, then your book',
    text: 'Enter the insurers you place business with and their commission rates, then your customers and policies.',
  },
  {
    title: 'Let the app keep count',
    text: 'Due and overdue instalments, policies about to end and the commission each one earns are worked out for you.',
  },
];

const REASONS = [
  {
    icon: IconBrandOpenSource,
    title: 'Open source',
    text: 'The code is public under the AGPL. You can read what it does with your figures, and it cannot be taken away from you.',
  },
  {
    icon: IconDatabase,
    title: 'Your data stays yours',
    text: 'Use our hosted service or run Coverdesk on your own PostgreSQL server. Either way, your book of business belongs to you.',
  },
  {
    icon: IconCalendarDue,
    title: 'Made for the daily routine',
    text: 'What is due, what is overdue and what each policy earns are worked out for you, on the desk and on the phone.',
  },
];

/** Full-width buttons, one above the other, on a phone; side by side from the first breakpoint. */
const CTA_ROW = {
  gap: 'sm',
  direction: { base: 'column', xs: 'row' },
  align: { base: 'stretch', xs: 'flex-start' },
} as const;

const PREVIEW = [
  { icon: IconCash, color: 'teal', title: 'Instalment 2 of 4 · due Friday', detail: '$312.50 · paid 1 of 4' },
  {
    icon: IconHourglassHigh,
    color: 'orange',
    title: 'Ends in 21 days',
    detail: 'Renew in one step before the cover lapses',
  },
  {
    icon: IconReportMoney,
    color: 'indigo',
    title: 'Commission $24.38 of $97.50 received',
    detail: 'Harel Insurance · pro rata',
  },
];

/** A made-up policy, as Coverdesk keeps it, so a visitor sees the kind of thing it works out. */
function PolicyPreview() {
  return (
    <Card shadow="md" radius="lg" padding="lg" withBorder>
      <Group justify="space-between" mb="md">
        <Text fw={700}>Policy P-1042 · Home contents</Text>
        <Badge variant="light" color="gray" radius="sm">
          Example
        </Badge>
      </Group>
      <Stack gap="sm">
        {PREVIEW.map((item) => (
          <Group key={item.title} gap="sm" wrap="nowrap" p="sm" bg="gray.0" style={{ borderRadius: 8 }}>
            <ThemeIcon size={36} radius="md" variant="light" color={item.color} aria-hidden>
              <item.icon size={20} />
            </ThemeIcon>
            <div>
              <Text fw={600} fz="sm">
                {item.title}
              </Text>
              <Text fz="sm" c="gray.7">
                {item.detail}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

/** The public home page: what Coverdesk does for a broker, and the three ways in. */
export function Component() {
  // One per button, so a failure is explained beside the button that was pressed.
  const heroDemo = useDemoLogin();
  const closingDemo = useDemoLogin();
  const { demo_available: demoAvailable } = usePublicSettings();
  return (
    <>
      <Box bg="indigo.0">
        <Container size="lg" py={{ base: 48, md: 88 }}>
          <Grid gap={48} align="center">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="lg">
                <Badge variant="white" size="lg" radius="sm" style={{ alignSelf: 'flex-start' }}>
                  Open source · 14-day free trial
                </Badge>
                <Title order={1} fz={{ base: 34, md: 50 }} lh={1.15} style={{ textWrap: 'balance' }}>
                  Coverdesk: the desk your insurance business runs on
                </Title>
                <Text fz={{ base: 'lg', md: 'xl' }}>
                  Customers, policies, instalments, commissions and renewals in one place, for insurance
                  agents, brokers and agencies. On the office screen and on your phone.
                </Text>
                <Flex {...CTA_ROW}>
                  <Button component={Link} to="/register" size="lg">
                    Start free trial
                  </Button>
                  <DemoButton demo={heroDemo} size="lg" />
                  <Button component={Link} to="/login" size="lg" variant="subtle" c="indigo.9">
                    Sign in
                  </Button>
                </Flex>
                <DemoError demo={heroDemo} />
                <Text fz="sm">14 days free, no card needed. Nothing to install.</Text>
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }} visibleFrom="md">
              <PolicyPreview />
            </Grid.Col>
          </Grid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 72 }}>
        <Stack gap="xl">
          <Stack gap="xs" maw={720}>
            <Title order={2}>Everything a broker keeps track of</Title>
            <Text c="gray.7" fz="lg">
              The work that fills a spreadsheet and a diary, done by the app that holds your book.
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {FEATURES.map((feature) => (
              <FeatureCard key={feature.title} icon={feature.icon} title={feature.title}>
                <Text c="gray.7">{feature.text}</Text>
              </FeatureCard>
            ))}
          </SimpleGrid>
          <Text c="gray.7">
            Reminders by email, importing a book from a spreadsheet and global search are being built now.
          </Text>
          <Group>
            <Button component={Link} to="/features" variant="light" size="md" mih={44}>
              See what works and what is coming
            </Button>
          </Group>
        </Stack>
      </Container>

      <Box bg="gray.0">
        <Container size="lg" py={{ base: 48, md: 72 }}>
          <Stack gap="xl">
            <Title order={2}>How it works</Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
              {STEPS.map((step, index) => (
                <Stack key={step.title} gap="xs">
                  <ThemeIcon size={40} radius="xl" aria-hidden>
                    <Text fw={700}>{index + 1}</Text>
                  </ThemeIcon>
                  <Title order={3} fz="lg">
                    {step.title}
                  </Title>
                  <Text c="gray.7">{step.text}</Text>
                </Stack>
              ))}
            </SimpleGrid>
          </Stack>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 72 }}>
        <Stack gap="xl">
          <Title order={2}>Why brokers choose it</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {REASONS.map((reason) => (
              <FeatureCard key={reason.title} icon={reason.icon} title={reason.title}>
                <Text c="gray.7">{reason.text}</Text>
              </FeatureCard>
            ))}
          </SimpleGrid>

          {demoAvailable && (
            <Card radius="lg" padding="xl" bg="indigo.7" c="white">
              <Stack gap="md" maw={680}>
                <Title order={2} c="white">
                  Look around before you sign up
                </Title>
                <Text>
                  Try the demo: a sample agency that opens in one click, with no account and no form to fill
                  in. It resets every day, so change anything you like.
                </Text>
                <Flex {...CTA_ROW}>
                  <DemoButton demo={closingDemo} size="lg" variant="white" />
                  <Button component={Link} to="/register" size="lg" variant="outline" color="white">
                    Start free trial
                  </Button>
                </Flex>
                <DemoError demo={closingDemo} />
              </Stack>
            </Card>
          )}
        </Stack>
      </Container>
    </>
  );
}
