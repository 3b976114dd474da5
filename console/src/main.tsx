import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Loading } from './components/bits';
import { notify, Toasts } from './components/Toasts';
import { useMe } from './session';
import { Shell } from './Shell';
import './styles.css';

/** A page's code loads when its route is first visited, so the first load carries only the shell and that page. */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return { lazy: async () => ({ Component: (await load())[name] }) };
}

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
    { path: '/sign-in', ...page(() => import('./pages/SignIn'), 'SignInPage') },
    { path: '/invitations/:token', ...page(() => import('./pages/Invitation'), 'InvitationPage') },
    { path: '/forgot-password', ...page(() => import('./pages/ForgotPassword'), 'ForgotPasswordPage') },
    { path: '/reset-password/:token', ...page(() => import('./pages/ResetPassword'), 'ResetPasswordPage') },
    { path: '/', element: <Home /> },
    { path: '/account', ...page(() => import('./pages/Account'), 'AccountPage') },
    {
      path: '/w/:ws',
      element: <Shell />,
      children: [
        { index: true, element: <Navigate to="overview" replace /> },
        { path: 'overview', ...page(() => import('./pages/Overview'), 'OverviewPage') },
        { path: 'sources', ...page(() => import('./pages/Sources'), 'SourcesPage') },
        { path: 'rules', ...page(() => import('./pages/Rules'), 'RulesPage') },
        { path: 'test', ...page(() => import('./pages/TestMode'), 'TestModePage') },
        { path: 'conversions', ...page(() => import('./pages/Conversions'), 'ConversionsPage') },
        { path: 'conversions/:id', ...page(() => import('./pages/Conversion'), 'ConversionPage') },
        { path: 'debugger', ...page(() => import('./pages/Debugger'), 'DebuggerPage') },
        { path: 'diagnostics', ...page(() => import('./pages/Diagnostics'), 'DiagnosticsPage') },
        { path: 'people', ...page(() => import('./pages/People'), 'PeoplePage') },
        { path: 'ads', ...page(() => import('./pages/Ads'), 'AdsPage') },
        { path: 'alerts', ...page(() => import('./pages/Alerts'), 'AlertsPage') },
        { path: 'settings', ...page(() => import('./pages/Settings'), 'SettingsPage') },
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
