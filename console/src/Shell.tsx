import { useQueryClient } from '@tanstack/react-query';
import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { Button } from 'react-aria-components';
import { api } from './api';
import { Loading } from './components/bits';
import { ScrollToHash } from './components/ScrollToHash';
import { SetupStatus } from './components/Setup';
import { useMe, useWorkspace } from './session';

const PAGES = [
  ['overview', 'Overview'],
  ['sources', 'Sources'],
  ['rules', 'Conversion rules'],
  ['test', 'Test mode'],
  ['conversions', 'Conversions'],
  ['debugger', 'Event debugger'],
  ['diagnostics', 'Diagnostics'],
  ['people', 'People'],
  ['ads', 'Ad performance'],
  ['alerts', 'Alerts'],
  ['settings', 'Settings'],
] as const;

/** Every workspace page: navigation, the workspace switcher, the test-mode banner while test mode is on, and the setup status until it is done. */
export function Shell() {
  const me = useMe();
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const queries = useQueryClient();
  if (me.isPending || workspace.isPending) return <Loading what="the workspace" />;
  if (workspace.isError) {
    return (
      <main className="page narrow">
        <h1>Not found</h1>
        <p>This workspace does not exist, or you are not one of its people.</p>
        <p>
          <a href="/console/">Back to your workspaces</a>
        </p>
      </main>
    );
  }
  const { workspace: ws, role } = workspace.data;
  return (
    <div className="shell">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Pages">
        <div className="brand">Signalbox</div>
        <label className="switcher">
          <span>Workspace</span>
          <select value={ws.id} onChange={(event) => navigate(`/w/${event.target.value}/overview`)}>
            {me.data?.workspaces.map((w) => (
              <option key={w.workspaceId} value={w.workspaceId}>
                {w.workspaceName}
              </option>
            ))}
          </select>
        </label>
        <ul>
          {PAGES.map(([path, label]) => (
            <li key={path}>
              <NavLink to={`/w/${ws.id}/${path}`}>{label}</NavLink>
            </li>
          ))}
        </ul>
        <div className="me">
          <NavLink to="/account">{me.data?.user.email}</NavLink>
          <span className="role">{role}</span>
          <Button
            className="button small"
            onPress={() => {
              void api('DELETE', 'session').finally(() => {
                queries.clear();
                window.location.assign('/console/sign-in');
              });
            }}
          >
            Sign out
          </Button>
        </div>
      </nav>
      <div className="content">
        {ws.testMode && (
          <div className="banner" role="status">
            Test mode is on: conversions go to TikTok with test event code <code>{ws.testEventCode}</code> and count for no campaign.{' '}
            <NavLink to={`/w/${ws.id}/test`}>Turn it off</NavLink> when you are done.
          </div>
        )}
        <SetupStatus />
        <ScrollToHash />
        <main id="main" className="page">
          {/* The navigation stays while a page's code loads. */}
          <Suspense fallback={<Loading what="the page" />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
