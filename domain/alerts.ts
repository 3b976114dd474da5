import { zonedTime } from './zoned-time';

/** Alert conditions: when each holds, in words (domain/alert-message.ts writes the mail). */

export type AlertCondition = 'reauthorization' | 'failed_deliveries' | 'no_events';

/** Below this many settled deliveries in the hour, a share of failures says too little to alert on. */
export const MIN_SETTLED_FOR_SHARE = 5;

export interface AlertThresholds {
  onReauthorization: boolean;
  failedSharePercent: number | null;
  silenceMinutes: number | null;
}

export interface AlertState {
  /** The TikTok connection's status; null when not connected. */
  connectionStatus: string | null;
  /** Conversions that ended in the last hour. */
  settled: { delivered: number; failed: number };
  lastEventAt: Date | null;
  /** When the alerts were first saved: the silence is counted from then when no event ever arrived. */
  since: Date;
  now: Date;
  /** The zone the sentences write times in (domain/alert-message.ts says which and why). */
  timeZone: string;
}

const minutesText = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`);

/** Each condition that holds now, with a sentence saying why. */
export function conditionsHolding(thresholds: AlertThresholds, state: AlertState): Map<AlertCondition, string> {
  const holding = new Map<AlertCondition, string>();
  if (thresholds.onReauthorization && state.connectionStatus === 'reauthorization_required') {
    holding.set('reauthorization', 'TikTok refused the access token: conversions are not sent until someone connects TikTok again (Sources).');
  }
  const { delivered, failed } = state.settled;
  const total = delivered + failed;
  if (thresholds.failedSharePercent !== null && total >= MIN_SETTLED_FOR_SHARE && failed * 100 >= thresholds.failedSharePercent * total) {
    holding.set('failed_deliveries', `${failed} of the ${total} conversions settled in the last hour failed (${Math.round((failed * 100) / total)}%; the alert is at ${thresholds.failedSharePercent}%).`);
  }
  if (thresholds.silenceMinutes !== null) {
    const reference = state.lastEventAt ?? state.since;
    if (state.now.getTime() - reference.getTime() >= thresholds.silenceMinutes * 60_000) {
      holding.set('no_events', state.lastEventAt === null ? `No event has arrived since the alerts were set up, more than ${minutesText(thresholds.silenceMinutes)} ago.` : `No event has arrived for ${minutesText(thresholds.silenceMinutes)} or more (the last at ${zonedTime(state.lastEventAt, state.timeZone)}).`);
    }
  }
  return holding;
}

const TITLES: Record<AlertCondition, string> = {
  reauthorization: 'TikTok needs to be connected again',
  failed_deliveries: 'Deliveries to TikTok are failing',
  no_events: 'No events are arriving',
};

export const conditionTitle = (condition: AlertCondition) => TITLES[condition];
