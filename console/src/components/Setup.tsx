import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { get } from '../api';
import { ErrorNote, Loading, Words } from './bits';
import { useWorkspace } from '../session';
import type { SetupView } from '../../../contract/setup-views';

/** The workspace's setup checklist (api/console/routes/setup.ts); every write refreshes it (main.tsx). */
export function useSetup() {
  const { ws, base } = useWorkspace();
  return useQuery({ queryKey: ['setup', ws], queryFn: () => get<SetupView>(`${base}/setup`), refetchInterval: 60_000 });
}

/** Overview: every step, done or not, in words, with the page where it is done. */
export function SetupChecklist() {
  const { ws } = useWorkspace();
  const setup = useSetup();
  if (setup.isPending) return <Loading what="the setup checklist" />;
  if (setup.isError) return <ErrorNote error={setup.error} />;
  const { steps, done, complete, matchRate } = setup.data;
  const list = (
    <ol className="checklist">
      {steps.map((step) => (
        <li key={step.key} className={step.done ? 'done' : 'open'}>
          <span className="mark" aria-hidden="true">
            {step.done ? '✓' : ''}
          </span>
          <div>
            <strong>{step.title}</strong> <span className="visually-hidden">{step.done ? '(done)' : '(to do)'}</span>
            <p>
              <Words text={step.explanation} />
            </p>
            <Link to={`/w/${ws}/${step.link.path}`}>{step.link.label}</Link>
          </div>
        </li>
      ))}
    </ol>
  );
  return (
    <section aria-labelledby="setup" className="setup">
      <h2 id="setup">Setup</h2>
      {complete ? (
        <details>
          <summary>All {steps.length} setup steps are done.</summary>
          {list}
        </details>
      ) : (
        <>
          <p>
            <strong>
              {done} of {steps.length} steps done.
            </strong>{' '}
            Each step is checked against what Signalbox sees now; its link leads to where it is done.
          </p>
          {list}
        </>
      )}
      <p className="muted">
        Match rate: the share of the conversions delivered in the last {matchRate.days} days that carried a TikTok click ID (<code>ttclid</code>), a hashed email or a hashed phone, the keys that name the click or
        the person to TikTok. The target is {Math.round(matchRate.target * 100)}% or more.
      </p>
    </section>
  );
}

/** Whether this browser last saw the workspace's setup unfinished: the status line's room is kept while it loads. */
const unfinishedKey = (ws: string) => `signalbox.setup-unfinished.${ws}`;

/** Every page but Overview (which shows the whole checklist) until the setup is done: how far it is, and the next step. */
export function SetupStatus() {
  const { ws } = useWorkspace();
  const { pathname } = useLocation();
  const setup = useSetup();
  const complete = setup.data?.complete;
  useEffect(() => {
    if (complete !== undefined) localStorage.setItem(unfinishedKey(ws), complete ? 'no' : 'yes');
  }, [ws, complete]);
  if (pathname.endsWith('/overview')) return null;
  // Held open with the line's own height so that the page does not move down when it arrives.
  if (!setup.data) return localStorage.getItem(unfinishedKey(ws)) === 'yes' ? <div className="setup-status" aria-hidden="true">&nbsp;</div> : null;
  if (setup.data.complete) return null;
  const next = setup.data.steps.find((step) => !step.done);
  return (
    <aside className="setup-status" aria-label="Setup progress">
      Setup: {setup.data.done} of {setup.data.steps.length} steps done.
      {next && (
        <>
          {' '}
          Next: <Link to={`/w/${ws}/${next.link.path}`}>{next.title}</Link>.
        </>
      )}{' '}
      <Link to={`/w/${ws}/overview#setup`}>The checklist</Link>
    </aside>
  );
}
