import { SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** The shape of an analytics screen while its figures load: the headline cards and two charts. */
export function AnalyticsSkeleton() {
  return (
    <Stack aria-busy="true" aria-label="Loading">
      <SimpleGrid cols={{ base: 2, sm: 3, xl: 6 }} spacing="sm">
        {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
          <Skeleton key={key} h={88} radius="md" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Skeleton h={320} radius="md" />
        <Skeleton h={320} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}
