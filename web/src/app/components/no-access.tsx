import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A screen the user may not open: why, and the way forward. */
export function NoAccess(props: { title: string; message: string; action: { label: string; to: string } }) {
  return (
    <Stack align="center" gap="md" py="xl" maw={480} mx="auto" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
        <IconLock size={28} />
      </ThemeIcon>
      <Title order={2}>{props.title}</Title>
      <Text c="dimmed">{props.message}</Text>
      <Button component={Link} to={props.action.to}>
        {props.action.label}
      </Button>
    </Stack>
  );
}
