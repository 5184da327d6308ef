// The admin console's frame: its own navigation among the admin screens and a way to forget the secret.
import { NavLink as RouterLink, Outlet } from 'react-router';
import { Button, Group, ScrollArea, Stack, Title } from '@mantine/core';
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
    <Stack className="admin-console">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
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
      <ScrollArea type="auto" offsetScrollbars>
        {/* Links keep their whole label and the row scrolls (admin.css); Group would cap each at a ninth of the width. */}
        <Group
          component="nav"
          aria-label={t('nav.label')}
          gap={4}
          wrap="nowrap"
          preventGrowOverflow={false}
          className="admin-nav"
        >
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
      </ScrollArea>
      <Outlet />
    </Stack>
  );
}
