import { AppShell, Box, Burger, Drawer, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { LoginPopup } from '../../features/notifications/components/login-popup.js';
import { NotificationBell } from '../../features/notifications/components/notification-bell.js';
import { useInAdminPortal } from '../../lib/hosts.js';
import { useDeviceClass } from '../../lib/viewport.js';
import { Logo } from '../components/logo.js';
import { PageLoader } from '../guards/page-loader.js';
import { useRouteHandle } from '../route-handle.js';
import { SetupGuide } from '../setup-guide.js';
import { DemoBanner, SubscriptionBanner, TwoStepBanner } from './banners.js';
import { DesktopSearch, MobileSearch } from './global-search.js';
import { MainNav } from './main-nav.js';
import { UserMenu } from './user-menu.js';

/** The signed-in app: a sidebar on a desk, a header with a slide-out menu on phones and tablets. */
export function Component() {
  const location = useLocation();
  const device = useDeviceClass(location.search);
  return device === 'desktop' ? <DesktopLayout /> : <MobileLayout />;
}

function PageTitle({ compact }: { compact?: boolean }) {
  const handle = useRouteHandle();
  return (
    <Box miw={0}>
      <Title order={1} fz={compact ? 'md' : 'h3'} lh={1.2} lineClamp={1}>
        {handle.title ?? 'Dashboard'}
      </Title>
      {handle.subtitle && (
        <Text fz={compact ? 'xs' : 'sm'} c="dimmed" truncate>
          {handle.subtitle}
        </Text>
      )}
    </Box>
  );
}

function Content() {
  return (
    <>
      <DemoBanner />
      <SubscriptionBanner />
      <TwoStepBanner />
      <SetupGuide />
      <LoginPopup />
      <Box p={{ base: 'sm', sm: 'lg' }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
    </>
  );
}

function DesktopLayout() {
  // The header's search looks through the admin's own agency; in the portal it would mislead.
  const inAdminPortal = useInAdminPortal();
  return (
    <AppShell header={{ height: 68 }} navbar={{ width: 248, breakpoint: 0 }} padding={0}>
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="lg">
          <PageTitle />
          <Group gap="md" wrap="nowrap">
            {!inAdminPortal && <DesktopSearch />}
            <NotificationBell />
            <UserMenu device="desktop" />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Sidebar">
        <AppShell.Section mb="md" px="xs" pt={4}>
          <Link to="/dashboard" aria-label="Coverdesk home" style={{ textDecoration: 'none' }}>
            <Logo />
          </Link>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <MainNav />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Content />
      </AppShell.Main>
    </AppShell>
  );
}

function MobileLayout() {
  const [opened, { open, close }] = useDisclosure(false);
  const inAdminPortal = useInAdminPortal();
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Burger opened={opened} onClick={open} aria-label="Open menu" size="sm" />
            <PageTitle compact />
          </Group>
          <Group gap={4} wrap="nowrap">
            {!inAdminPortal && <MobileSearch />}
            <NotificationBell />
            <UserMenu device="mobile" />
          </Group>
        </Group>
      </AppShell.Header>
      <Drawer
        opened={opened}
        onClose={close}
        size={280}
        title={<Logo size="md" />}
        closeButtonProps={{ 'aria-label': 'Close menu' }}
      >
        <Stack>
          <MainNav onNavigate={close} />
        </Stack>
      </Drawer>
      <AppShell.Main>
        <Content />
      </AppShell.Main>
    </AppShell>
  );
}
