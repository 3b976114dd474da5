import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Loading } from './components/bits';
import { notify, Toasts } from './components/Toasts';
import { AccountPage } from './pages/Account';
import { AdsPage } from './pages/Ads';
import { AlertsPage } from './pages/Alerts';
import { ConversionPage } from './pages/Conversion';
import { ConversionsPage } from './pages/Conversions';
import { DebuggerPage } from './pages/Debugger';
import { ForgotPasswordPage } from './pages/ForgotPassword';
import { InvitationPage } from './pages/Invitation';
import { OverviewPage } from './pages/Overview';
import { PeoplePage } from './pages/People';
import { ResetPasswordPage } from './pages/ResetPassword';
import { RulesPage } from './pages/Rules';
import { SettingsPage } from './pages/Settings';
import { SignInPage } from './pages/SignIn';
import { SourcesPage } from './pages/Sources';
import { TestModePage } from './pages/TestMode';
import { useMe } from './session';
import { Shell } from './Shell';
import './styles.css';

function Home() {
  const me = useMe();
  if (me.isPending) return <Loading what="your workspaces" />;
  const first = me.data?.workspaces[0];
  if (first === undefined) {
    return (
      <main className="page narrow">
        <h1>No workspace yet</h1>
        <p>You are signed in, but no workspace has given you access. Ask an owner for an invitation.</p>
      </main>
    );
  }
  return <Navigate to={`/w/${first.workspaceId}/overview`} replace />;
}

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/invitations/:token', element: <InvitationPage /> },
    { path: '/forgot-password', element: <ForgotPasswordPage /> },
    { path: '/reset-password/:token', element: <ResetPasswordPage /> },
    { path: '/', element: <Home /> },
    { path: '/account', element: <AccountPage /> },
    {
      path: '/w/:ws',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="overview" replace /> },
        { path: 'overview', element: <OverviewPage /> },
        { path: 'sources', element: <SourcesPage /> },
        { path: 'rules', element: <RulesPage /> },
        { path: 'test', element: <TestModePage /> },
        { path: 'conversions', element: <ConversionsPage /> },
        { path: 'conversions/:id', element: <ConversionPage /> },
        { path: 'debugger', element: <DebuggerPage /> },
        { path: 'people', element: <PeoplePage /> },
        { path: 'ads', element: <AdsPage /> },
        { path: 'alerts', element: <AlertsPage /> },
        { path: 'settings', element: <SettingsPage /> },
      ],
    },
    { path: '*', element: <Navigate to="/" replace /> },
  ],
  { basename: '/console' },
);

declare module '@tanstack/react-query' {
  interface Register {
    /** `done`: the confirmation a successful write shows, e.g. "Settings saved" (a function of the mutation's variables and answer). */
    mutationMeta: { done?: string | ((variables: never, answer: never) => string) };
  }
}

const queryClient: QueryClient = new QueryClient({
  mutationCache: new MutationCache({
    onSuccess: (answer, variables, _context, mutation) => {
      const done = mutation.meta?.done;
      if (done !== undefined) notify(typeof done === 'string' ? done : (done as (v: unknown, a: unknown) => string)(variables, answer));
      // Every write is in the change log: the Settings page shows it without a reload. A write may also finish a setup step.
      void queryClient.invalidateQueries({ queryKey: ['change-log'] });
      void queryClient.invalidateQueries({ queryKey: ['setup'] });
    },
  }),
  defaultOptions: {
    queries: { retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toasts />
    </QueryClientProvider>
  </StrictMode>,
);
