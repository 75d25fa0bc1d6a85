import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldHalfFilled } from '@tabler/icons-react';

export function Logo({ size = 'lg' }: { size?: 'md' | 'lg' }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={size === 'lg' ? 32 : 28} radius="md" aria-hidden>
        <IconShieldHalfFilled size={size === 'lg' ? 20 : 18} />
      </ThemeIcon>
      <Text fw={700} fz={size === 'lg' ? 'xl' : 'lg'} c="var(--mantine-color-text)">
        Coverdesk
      </Text>
    </Group>
  );
}
