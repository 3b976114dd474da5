import type { Knex } from 'knex';
import type { Repositories } from '../../db/repositories';
import type { PastEventRun } from '../../db/repositories/past-events';
import { pastEventDaysProblem } from '../../domain/past-events';
import type { PastEventsStarter } from '../../temporal/past-events';
import { badRequest, HttpError, notFound } from '../http/http-error';
import type { Actor } from './settings/actor';

const DAY_MS = 86_400_000;
/** Stored events read per page while counting a preview. */
const PREVIEW_PAGE = 1_000;

export interface PastEventPreviewView {
  event: string;
  days: number;
  since: Date;
  until: Date;
  /** Stored events that would become conversions, and the conversions they would make (a rule may send each as several). */
  events: number;
  conversions: number;
}

type Deps = { db: Knex; repos: Pick<Repositories, 'workspaces' | 'conversionRules' | 'pastEvents' | 'changeLog'>; start: PastEventsStarter };

/**
 * "Send past events" for the console and the settings API: a rule's stored events of the last `days` that it maps now
 * become conversions once, each under the event_id ingest would have given it, by a durable workflow on a worker.
 */
export function createPastEventService({ db, repos, start }: Deps) {
  async function plan(workspaceId: string, sourceEvent: string, days: number) {
    const [workspace, rule] = await Promise.all([repos.workspaces.find(workspaceId), repos.conversionRules.find(workspaceId, sourceEvent)]);
    if (workspace === undefined) throw notFound(`no workspace ${workspaceId}`);
    if (rule === undefined) throw notFound(`no conversion rule for event ${sourceEvent}: add the rule, then send its past events`);
    const problem = pastEventDaysProblem(days, workspace);
    if (problem !== undefined) throw badRequest(problem, [problem]);
    const until = new Date();
    return { rule, window: { workspaceId, sourceEvent, since: new Date(until.getTime() - days * DAY_MS), until } };
  }

  async function preview(workspaceId: string, sourceEvent: string, days: number): Promise<PastEventPreviewView> {
    const { rule, window } = await plan(workspaceId, sourceEvent, days);
    const counts = await repos.pastEvents.preview(window, rule, PREVIEW_PAGE);
    return { event: sourceEvent, days, since: window.since, until: window.until, ...counts };
  }

  async function send(actor: Actor, workspaceId: string, sourceEvent: string, days: number): Promise<PastEventRun> {
    const counts = await preview(workspaceId, sourceEvent, days);
    const run = await db.transaction(async (trx) => {
      const planned = { workspaceId, sourceEvent, days, since: counts.since, until: counts.until, requestedBy: actor, eventsToSend: counts.events, conversionsToSend: counts.conversions };
      const created = await repos.pastEvents.create(planned, trx);
      if (created === undefined) return undefined;
      await repos.changeLog.record({ workspaceId, actor, action: 'rule.send_past', target: sourceEvent, after: { days, events: counts.events, conversions: counts.conversions } }, trx);
      return created;
    });
    if (run === undefined) {
      const running = (await repos.pastEvents.latest(workspaceId)).get(sourceEvent) as PastEventRun;
      // Starting it again costs nothing when it runs, and carries on a run whose start was lost (API stopped, Temporal down).
      await start(running);
      throw new HttpError(409, 'already_sending', `past events of ${sourceEvent} are being sent already: ${running.conversionsCreated} of ${running.conversionsToSend} conversions so far`);
    }
    await start(run);
    return run;
  }

  return { preview, send, latest: (workspaceId: string) => repos.pastEvents.latest(workspaceId) };
}

export type PastEventService = ReturnType<typeof createPastEventService>;
