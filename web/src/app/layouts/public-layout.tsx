import { Anchor, Box, Burger, Button, Container, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useSession } from '../../lib/session-context.js';
import { Logo } from '../components/logo.js';
import { PageLoader } from '../guards/page-loader.js';
import classes from './public-layout.module.css';

const PUBLIC_LINKS = [
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];

/** The public site: a header with the product's pages and the way in, and a footer. */
export function Component() {
  const { state } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const signedIn = Boolean(state.user);
  const actions = signedIn ? (
    <Button component={Link} to="/dashboard" onClick={close}>
      Open Coverdesk
    </Button>
  ) : (
    <>
      <Button component={Link} to="/login" variant="default" onClick={close}>
        Sign in
      </Button>
      <Button component={Link} to="/register" onClick={close}>
        Start free trial
      </Button>
    </>
  );
  return (
    <Box className={classes.page}>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Link to="/" aria-label="Coverdesk home" className={classes.brand}>
              <Logo />
            </Link>
            <Group gap="lg" visibleFrom="sm" component="nav" aria-label="Site">
              {PUBLIC_LINKS.map((link) => (
                <NavLink key={link.to} to={link.to} className={classes.link}>
                  {link.label}
                </NavLink>
              ))}
            </Group>
            <Group gap="xs" visibleFrom="sm">
              {actions}
            </Group>
            <Burger hiddenFrom="sm" opened={opened} onClick={toggle} aria-label="Open menu" />
          </Group>
        </Container>
      </header>
      <Drawer opened={opened} onClose={close} title={<Logo size="md" />} hiddenFrom="sm" size="100%">
        <Stack component="nav" aria-label="Site">
          {PUBLIC_LINKS.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} onClick={close} fz="lg" py={6}>
              {link.label}
            </Anchor>
          ))}
          {actions}
        </Stack>
      </Drawer>
      <main className={classes.main}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className={classes.footer}>
        <Container size="lg">
          <Group justify="space-between" gap="sm">
            <Text fz="sm" c="gray.7">
              © {new Date().getFullYear()} Coverdesk. Open-source software for insurance agencies.
            </Text>
            <Group gap="md" component="nav" aria-label="Footer">
              <Anchor component={Link} to="/terms" fz="sm" c="gray.7">
                Terms
              </Anchor>
              <Anchor component={Link} to="/about" fz="sm" c="gray.7">
                About
              </Anchor>
              <Anchor component={Link} to="/contact" fz="sm" c="gray.7">
                Contact
              </Anchor>
            </Group>
          </Group>
        </Container>
      </footer>
    </Box>
  );
}
