import { Card, Group, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface FeatureCardProps {
  icon: Icon;
  title: string;
  children: ReactNode;
}

/** An icon, a level-3 heading and what it means for the broker; the cards sit under a level-2 section. */
export function FeatureCard({ icon: FeatureIcon, title, children }: FeatureCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" h="100%">
      <Group gap="sm" wrap="nowrap" mb="sm" align="center">
        <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
          <FeatureIcon size={22} stroke={1.6} />
        </ThemeIcon>
        <Title order={3} fz="lg">
          {title}
        </Title>
      </Group>
      {children}
    </Card>
  );
}
