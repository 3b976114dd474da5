import { Gauge, type Registry } from 'prom-client';
import type { PendingBacklog } from '../db/repositories/conversions';

/** How many workspaces get series of their own: those with the most pending conversions, and those with the oldest. */
export const BACKLOG_WORKSPACES = 5;

/** Where the backlog is read, at each scrape: `pendingBacklog(top)` of the conversion repository. */
export type ReadBacklog = (top: number) => Promise<PendingBacklog>;

/**
 * The backlog an operator alerts on, read from PostgreSQL at each scrape (one index-only query for the four gauges):
 * pending conversions and the age of the oldest, in total, and for the BACKLOG_WORKSPACES workspaces with the most
 * and those with the oldest, labelled by workspace (at most twice that many series, whatever the number of
 * workspaces). Every worker reports the same figures: take the max across workers, not the sum.
 */
export function registerBacklogGauges(registry: Registry, read: ReadBacklog): void {
  let scrape: Promise<PendingBacklog | undefined> | undefined;
  // The four gauges are collected together at each scrape: they share one query.
  const current = () => {
    scrape ??= read(BACKLOG_WORKSPACES)
      // Without the database the last figures stand, as the API's internal-error gauge does.
      .catch(() => undefined)
      .finally(() => {
        scrape = undefined;
      });
    return scrape;
  };
  const registers = [registry];
  const total = (name: string, help: string, value: (backlog: PendingBacklog) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const backlog = await current();
        if (backlog) this.set(value(backlog));
      },
    });
  const perWorkspace = (name: string, help: string, value: (workspace: PendingBacklog['workspaces'][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['workspace'] as const,
      registers,
      async collect() {
        const backlog = await current();
        if (!backlog) return;
        this.reset();
        for (const workspace of backlog.workspaces) this.set({ workspace: workspace.workspaceId }, value(workspace));
      },
    });
  const which = `the ${BACKLOG_WORKSPACES} workspaces with the most pending and the ${BACKLOG_WORKSPACES} with the oldest`;
  total('signalbox_conversions_pending', 'Conversions waiting to be delivered (pending), all workspaces, read from PostgreSQL at each scrape', (b) => b.total);
  total('signalbox_conversions_pending_oldest_age_seconds', 'Age of the oldest pending conversion, all workspaces (0 when none is pending)', (b) => b.oldestAgeSeconds);
  perWorkspace('signalbox_workspace_conversions_pending', `Pending conversions of ${which}`, (w) => w.pending);
  perWorkspace('signalbox_workspace_conversions_pending_oldest_age_seconds', `Age of the oldest pending conversion of ${which}`, (w) => w.oldestAgeSeconds);
}
