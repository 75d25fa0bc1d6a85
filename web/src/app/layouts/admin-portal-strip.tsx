import { Box, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

/** A red strip on the admin host: this is the restricted admin portal. */
export function AdminPortalStrip() {
  return (
    <Box bg="red.8" c="white" py={4} px="md" ta="center" role="note">
      <Group gap={6} justify="center">
        <IconLock size={14} aria-hidden />
        <Text fz="xs" fw={700}>
          ADMIN PORTAL — restricted access
        </Text>
      </Group>
    </Box>
  );
}
