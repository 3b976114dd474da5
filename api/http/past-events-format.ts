import type { PastEventRun } from '../../db/repositories/past-events';

/** A run of "send past events" as both APIs show it. */
export function pastEventRunView(run: PastEventRun) {
  return {
    event: run.sourceEvent,
    days: run.days,
    since: run.since,
    until: run.until,
    status: run.status,
    eventsToSend: run.eventsToSend,
    conversionsToSend: run.conversionsToSend,
    eventsScanned: run.eventsScanned,
    conversionsCreated: run.conversionsCreated,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
  };
}

export type PastEventRunView = ReturnType<typeof pastEventRunView>;
