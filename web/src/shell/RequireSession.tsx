// Lets signed-in users through to the user screens; everyone else goes to the sign-in screen.
import { Navigate, Outlet, useLocation } from 'react-router';
import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SHELL } from './strings';
import { useSession } from './session';
import { Loading } from './Layout';

export function RequireSession() {
  const { t } = useTranslation(SHELL);
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (session.isError) {
    return (
      <Alert color="red" title={t('offline')}>
        <Button variant="default" onClick={() => void session.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  }
  if (!session.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
