import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError } from './api';
import { Loading } from './components/bits';
import { notify, Toasts } from './components/Toasts';
import { useMe } from './session';
import { Shell } from './Shell';
import './styles.css';

/**
 * A page's code loads when its route is first visited, so the first load carries only the shell and that page. The
 * routes are react-router's declarative ones: its data router (loaders, actions, fetchers) weighs ~18 kB gzipped more
 * in every page's first load, and the console fetches through react-query instead.
 */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  const Page = lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
  return <Page />;
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

const routes = (
  <Routes>
    <Route path="/sign-in" element={page(() => import('./pages/SignIn'), 'SignInPage')} />
    <Route path="/invitations/:token" element={page(() => import('./pages/Invitation'), 'InvitationPage')} />
    <Route path="/forgot-password" element={page(() => import('./pages/ForgotPassword'), 'ForgotPasswordPage')} />
    <Route path="/reset-password/:token" element={page(() => import('./pages/ResetPassword'), 'ResetPasswordPage')} />
    <Route path="/" element={<Home />} />
    <Route path="/account" element={page(() => import('./pages/Account'), 'AccountPage')} />
    <Route path="/w/:ws" element={<Shell />}>
      <Route index element={<Navigate to="overview" replace />} />
      <Route path="overview" element={page(() => import('./pages/Overview'), 'OverviewPage')} />
      <Route path="sources" element={page(() => import('./pages/Sources'), 'SourcesPage')} />
      <Route path="rules" element={page(() => import('./pages/Rules'), 'RulesPage')} />
      <Route path="test" element={page(() => import('./pages/TestMode'), 'TestModePage')} />
      <Route path="conversions" element={page(() => import('./pages/Conversions'), 'ConversionsPage')} />
      <Route path="conversions/:id" element={page(() => import('./pages/Conversion'), 'ConversionPage')} />
      <Route path="debugger" element={page(() => import('./pages/Debugger'), 'DebuggerPage')} />
      <Route path="diagnostics" element={page(() => import('./pages/Diagnostics'), 'DiagnosticsPage')} />
      <Route path="people" element={page(() => import('./pages/People'), 'PeoplePage')} />
      <Route path="ads" element={page(() => import('./pages/Ads'), 'AdsPage')} />
      <Route path="alerts" element={page(() => import('./pages/Alerts'), 'AlertsPage')} />
      <Route path="settings" element={page(() => import('./pages/Settings'), 'SettingsPage')} />
    </Route>
    <Route path="*" element={<Navigate to="/" replace />} />
  </Routes>
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
      <BrowserRouter basename="/console">
        <Suspense fallback={<Loading what="the page" />}>{routes}</Suspense>
      </BrowserRouter>
      <Toasts />
    </QueryClientProvider>
  </StrictMode>,
);
