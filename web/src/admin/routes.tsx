// The admin console's routes: the gate, the frame, and one lazily loaded chunk per screen (web/src/admin/screens/<screen>/).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route } from 'react-router';
import { ADMIN_SCREENS, type AdminScreen } from './screen-list';

const AdminGate = lazy(() => import('./AdminGate'));
const AdminLayout = lazy(() => import('./AdminLayout'));

const SCREENS: Record<AdminScreen, LazyExoticComponent<ComponentType>> = {
  stats: lazy(() => import('./screens/stats/Stats')),
  users: lazy(() => import('./screens/users/Users')),
  providers: lazy(() => import('./screens/providers/Providers')),
  connections: lazy(() => import('./screens/connections/Connections')),
  bans: lazy(() => import('./screens/bans/Bans')),
  formats: lazy(() => import('./screens/formats/Formats')),
  branding: lazy(() => import('./screens/branding/Branding')),
  webhooks: lazy(() => import('./screens/webhooks/Webhooks')),
  audit: lazy(() => import('./screens/audit/Audit')),
};

/** The routes under /admin; a screen may have routes of its own below its path. */
export const adminRoutes = (
  <Route path="admin" element={<AdminGate />}>
    <Route element={<AdminLayout />}>
      <Route index element={<Navigate to="stats" replace />} />
      {ADMIN_SCREENS.map((screen) => {
        const Screen = SCREENS[screen];
        return <Route key={screen} path={`${screen}/*`} element={<Screen />} />;
      })}
    </Route>
  </Route>
);
