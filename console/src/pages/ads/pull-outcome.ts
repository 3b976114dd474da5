import type { AdReport } from '../../../../contract/ad-report';

/** A pull seldom takes more than a minute; past this the page stops asking and says so. */
const GIVE_UP_MS = 180_000;
/** How often the report is asked for while a pull runs. */
export const WATCH_EVERY_MS = 2_000;

export type PullState = Pick<AdReport, 'statsPulledAt' | 'statsPullError'>;

/** What the report said when "Pull now" was pressed, and when. */
export type PullStart = PullState & { at: number };

export const pullStart = (report: PullState): PullStart => ({ statsPulledAt: report.statsPulledAt, statsPullError: report.statsPullError, at: Date.now() });

/**
 * Whether a watched pull is over, judged from the report that just arrived: its `statsPulledAt` moved on (the
 * figures are in), a new error shows, or it has taken too long. Undefined while it still runs.
 */
export function pullOutcome(start: PullStart, report: PullState, now = Date.now()): { arrived: boolean; message: string } | undefined {
  if (report.statsPulledAt !== start.statsPulledAt) return { arrived: true, message: 'TikTok’s latest figures are in' };
  if (report.statsPullError !== null && report.statsPullError !== start.statsPullError) return { arrived: false, message: `The pull failed: ${report.statsPullError}` };
  if (now - start.at > GIVE_UP_MS) return { arrived: false, message: 'The pull is taking long: the figures will show here once it has finished.' };
  return undefined;
}
