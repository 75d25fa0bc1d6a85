import { Anchor, Button, Container, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconBrandOpenSource,
  IconBriefcase,
  IconBuildingStore,
  IconDatabase,
  IconServer,
  IconUser,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { FeatureCard } from '../components/feature-card.js';

const AUDIENCES = [
  {
    icon: IconUser,
    title: 'Independent agents',
    text: 'You sell and service every policy yourself, often from the road. Coverdesk keeps the dates and figures, so your evenings are not spent on spreadsheets.',
  },
  {
    icon: IconBriefcase,
    title: 'Brokers',
    text: 'You place business with several insurers, each with its own rates and way of paying commission. Coverdesk knows which is which.',
  },
  {
    icon: IconBuildingStore,
    title: 'Agencies',
    text: 'A larger book across many insurers and lines of cover. Every policy carries its commission; the commission report adds it up by insurer for any period, and the analytics show how the book is changing.',
  },
];

const PRINCIPLES = [
  {
    icon: IconBrandOpenSource,
    title: 'Open source',
    text: 'Coverdesk is published under the GNU Affero General Public License, version 3 or later. Anyone can read the code, run it and improve it.',
  },
  {
    icon: IconDatabase,
    title: 'Your data stays yours',
    text: 'Your customers and policies are your business. Each agency’s records are kept apart from every other’s, and we do not sell or mine them.',
  },
  {
    icon: IconServer,
    title: 'Self-hostable',
    text: 'Prefer your own server? Coverdesk runs on Node.js with a PostgreSQL database you control, with the same features as the hosted service.',
  },
];

/** `/about`: why Coverdesk exists and who it is for. */
export function Component() {
  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap={56}>
        <Stack gap="md" maw={760}>
          <Title order={1} fz={{ base: 32, md: 44 }}>
            About Coverdesk
          </Title>
          <Text fz="lg">
            Most insurance agents run their business on a mix of spreadsheets, insurer portals, a diary and
            memory. It works until a renewal slips past, an instalment goes unnoticed, or an insurer’s
            commission statement does not add up and there is nothing to check it against.
          </Text>
          <Text fz="lg">
            Coverdesk exists to put that work in one place: the customers, the policies and their instalments,
            the insurers and what they owe you, and the dates that matter. It is built for the way brokers
            actually work, at a desk in the morning and on a phone for the rest of the day.
          </Text>
        </Stack>

        <Stack gap="lg" component="section">
          <Title order={2}>Who it is for</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {AUDIENCES.map((audience) => (
              <FeatureCard key={audience.title} icon={audience.icon} title={audience.title}>
                <Text c="gray.7">{audience.text}</Text>
              </FeatureCard>
            ))}
          </SimpleGrid>
        </Stack>

        <Stack gap="lg" component="section">
          <Title order={2}>What we stand by</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {PRINCIPLES.map((principle) => (
              <FeatureCard key={principle.title} icon={principle.icon} title={principle.title}>
                <Text c="gray.7">{principle.text}</Text>
              </FeatureCard>
            ))}
          </SimpleGrid>
        </Stack>

        <Stack gap="md" component="section" maw={760}>
          <Title order={2}>Hosted or on your own server</Title>
          <Text>
            The simplest way to start is the hosted service: register, and your agency is ready with a 14-day
            free trial. If your firm needs its data on its own infrastructure, run Coverdesk yourself:
          </Text>
          <List spacing="xs">
            <List.Item>Node.js 20.19 or newer, and PostgreSQL 15 or newer.</List.Item>
            <List.Item>
              Every setting comes from environment variables; none is needed to try it on a laptop.
            </List.Item>
            <List.Item>
              Database migrations run on start, and each agency’s rows are separated in the database.
            </List.Item>
          </List>
          <Text>
            Questions about running it?{' '}
            <Anchor component={Link} to="/contact">
              Write to us
            </Anchor>
            .
          </Text>
        </Stack>

        <Stack gap="md" align="flex-start" component="section">
          <Title order={2}>See it for yourself</Title>
          <Text fz="lg">Start with your own agency, or compare the plans first.</Text>
          <Group gap="sm">
            <Button component={Link} to="/register" size="lg">
              Start free trial
            </Button>
            <Button component={Link} to="/pricing" size="lg" variant="default">
              See pricing
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Container>
  );
}
