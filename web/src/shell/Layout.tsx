// The frame around every screen: header (menu, language, theme, sign out), navigation when signed in, and the screen.
import { Suspense, useRef } from 'react';
import { NavLink as RouterLink, Outlet, useNavigate } from 'react-router';
import { AppShell, Box, Burger, Button, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { SHELL } from './strings';
import { useSession, useSignOut } from './session';
import { useAccentColor, useBranding } from './branding';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { LanguageSwitch } from './LanguageSwitch';
import './shell.css';

const USER_LINKS = [
  { to: '/subs', key: 'nav.subscriptions' },
  { to: '/connections', key: 'nav.connections' },
  { to: '/activity', key: 'nav.activity' },
  { to: '/account', key: 'nav.account' },
] as const;

export function Layout() {
  const { t } = useTranslation(SHELL);
  const [opened, { toggle, close }] = useDisclosure(false);
  const session = useSession();
  const signedIn = Boolean(session.data);
  const main = useRef<HTMLElement>(null);
  // Below the sm breakpoint (48em) the navigation slides in; closed, it must not take focus or be read out.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const navHidden = !wide && !opened;
  const branding = useBranding().data;
  useAccentColor(branding?.accent_color);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !signedIn } }}
      padding="md"
    >
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" className="brand">
            {signedIn && (
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
            )}
            {/* The name beside it says what the logo says, so the image is decoration. */}
            {branding?.logo && <img className="brand-logo" src={branding.logo} alt="" />}
            <Title order={1} size="h3" className="brand-name">
              {branding?.service_name ?? t('appName')}
            </Title>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
            {signedIn && (
              <Box visibleFrom="sm">
                <SignOutButton />
              </Box>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      {signedIn && (
        <AppShell.Navbar
          p="xs"
          component="nav"
          aria-label={t('nav.label')}
          style={navHidden ? { visibility: 'hidden' } : undefined}
        >
          {USER_LINKS.map((link) => (
            <NavLink key={link.to} component={RouterLink} to={link.to} label={t(link.key)} onClick={close} />
          ))}
          <NavLink component={RouterLink} to="/admin" label={t('nav.admin')} onClick={close} mt="auto" />
          {/* Phones have no room for it in the header. */}
          <Box hiddenFrom="sm" mt="xs">
            <SignOutButton />
          </Box>
        </AppShell.Navbar>
      )}
      <AppShell.Main id="main" ref={main} tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

function SignOutButton() {
  const { t } = useTranslation(SHELL);
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <Button
      variant="default"
      size="xs"
      loading={signOut.isPending}
      onClick={() => signOut.mutate(undefined, { onSuccess: () => void navigate('/sign-in') })}
    >
      {t('signOut')}
    </Button>
  );
}

export function Loading() {
  const { t } = useTranslation(SHELL);
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>{t('loading')}</Text>
    </Group>
  );
}
