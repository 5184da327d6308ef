// Routes under /app: every screen is its own lazily loaded chunk, so the first load carries only the shell.
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Layout } from './shell/Layout';
import { RequireSession } from './shell/RequireSession';
import { NotFound } from './shell/NotFound';
import { adminRoutes } from './admin/routes';

const SignIn = lazy(() => import('./screens/sign-in/SignIn'));
const SubscriptionList = lazy(() => import('./screens/subscriptions/SubscriptionList'));
const SubscriptionDetail = lazy(() => import('./screens/subscriptions/SubscriptionDetail'));
const Connections = lazy(() => import('./screens/connections/Connections'));
const Account = lazy(() => import('./screens/account/Account'));
const Activity = lazy(() => import('./screens/activity/Activity'));

export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="sign-in" element={<SignIn />} />
        {adminRoutes}
        <Route element={<RequireSession />}>
          <Route index element={<Navigate to="/subs" replace />} />
          <Route path="subs" element={<SubscriptionList />} />
          <Route path="subs/:token" element={<SubscriptionDetail />} />
          <Route path="connections" element={<Connections />} />
          <Route path="activity" element={<Activity />} />
          <Route path="account" element={<Account />} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
