import type { ModuleName } from '@coverdesk/contract';
import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { useAccess } from '../../../app/access.js';
import { KEY_FIGURES } from './key-figures.js';

/** The dashboard's charts and lists, named for an agency that has nothing in them yet. */
const BELOW: { label: string; teaches: string; modules: ModuleName[] }[] = [
  {
    label: 'The last 12 months',
    teaches: 'Premium written and commission earned on customer payments, month by month.',
    modules: ['module_policies', 'module_commission_reports'],
  },
  {
    label: 'Commission by insurer',
    teaches: "This year's expected commission from each insurer, and what it earned on customer payments.",
    modules: ['module_commission_reports'],
  },
  { label: 'Policies by type', teaches: 'The policies in force, by type.', modules: ['module_policies'] },
  {
    label: 'Overdue payments',
    teaches: 'The instalments overdue longest, to record a payment without leaving the page.',
    modules: ['module_payments'],
  },
  {
    label: 'Renewals due',
    teaches: 'The policies ending soonest, each with the way to renew it.',
    modules: ['module_policies'],
  },
  { label: 'Recent leads', teaches: 'The leads you added last.', modules: ['module_leads'] },
];

/**
 * What each card will show once the agency has data, under its setup steps: the dashboard teaches
 * what it is for before there is anything to count.
 */
export function WhatYouWillSee() {
  const access = useAccess();
  const previews = [
    ...KEY_FIGURES.filter((figure) => access.canOpen(figure.module)),
    ...BELOW.filter((part) => part.modules.every((module) => access.canOpen(module))),
  ];
  return (
    <section aria-labelledby="what-you-will-see">
      <Title order={3} fz="h4" id="what-you-will-see" mb={4}>
        What your dashboard will show
      </Title>
      <Text c="dimmed" fz="sm" mb="sm">
        Once your policies are in, this page sums up your book each time you open it:
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        {previews.map((preview) => (
          <Card key={preview.label} withBorder padding="md" style={{ borderStyle: 'dashed' }}>
            <Text fw={600} fz="sm">
              {preview.label}
            </Text>
            <Text fz="sm" c="dimmed" mt={2}>
              {preview.teaches}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}
