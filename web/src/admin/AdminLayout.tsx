// The admin console's frame: its own navigation among the admin screens, a way back to the user area, and a way to
// forget the secret.
import { Link, NavLink as RouterLink, Outlet } from 'react-router';
import { Button, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN } from './strings';
import { storeAdminSecret } from './secret';
import { ADMIN_SCREENS } from './screen-list';
import './admin.css';

export default function AdminLayout() {
  const { t } = useTranslation(ADMIN);
  const queries = useQueryClient();
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        <Group gap="xs" wrap="wrap">
          {/* The user area at /app/ (its sign-in screen when no one is signed in); the admin secret stays. */}
          <Button component={Link} to="/" variant="default" size="xs">
            {t('backToApp')}
          </Button>
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              storeAdminSecret(null);
              queries.removeQueries({ queryKey: ['admin'] });
            }}
          >
            {t('leave')}
          </Button>
        </Group>
      </Group>
      {/* The links wrap onto more rows on a phone: in a scrolling row they were squeezed to a letter or two. */}
      <Group component="nav" aria-label={t('nav.label')} gap={4} wrap="wrap" className="admin-nav">
        {ADMIN_SCREENS.map((screen) => (
          <Button
            key={screen}
            component={RouterLink}
            to={`/admin/${screen}`}
            variant="subtle"
            size="compact-sm"
            className="admin-nav-link"
          >
            {t(`nav.${screen}`)}
          </Button>
        ))}
      </Group>
      <Outlet />
    </Stack>
  );
}
