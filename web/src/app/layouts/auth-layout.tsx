import { Box, Center, Paper, Stack } from '@mantine/core';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { Logo } from '../components/logo.js';
import { PageLoader } from '../guards/page-loader.js';

/** Sign-in, registration and password screens: one card, centred, the logo above it. */
export function AuthLayout() {
  return (
    <Center mih="100vh" bg="gray.0" p="md" component="main">
      <Stack w="100%" maw={440} gap="lg" py="xl">
        <Center>
          <Link to="/" aria-label="Coverdesk home" style={{ textDecoration: 'none' }}>
            <Logo />
          </Link>
        </Center>
        <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
          <Box>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Box>
        </Paper>
      </Stack>
    </Center>
  );
}
