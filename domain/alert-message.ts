import { conditionTitle, type AlertCondition } from './alerts';
import { workspacePageUrl } from './console-links';
import { zonedTime } from './zoned-time';

/** One answer TikTok gave the conversions that failed, and how many got it. */
export interface TikTokAnswer {
  code: number | null;
  message: string;
  conversions: number;
}

/** What every alert of a workspace is written with. */
export interface AlertContext {
  workspaceId: string;
  workspaceName: string;
  /** `PUBLIC_URL`: the console pages the alert links to are under it. */
  publicUrl: string;
  /** The TikTok advertiser's time zone, which the console's figures use too; null until TikTok reported it (then UTC). */
  advertiserTimeZone: string | null;
}

export interface AlertText {
  subject: string;
  text: string;
}

/** Where a person acts on each condition, as console pages of the workspace. */
const WHERE_TO_ACT: Record<AlertCondition, [label: string, page: string][]> = {
  reauthorization: [
    ['Connect TikTok again', 'sources#tiktok'],
    ['The conversions held back meanwhile', 'conversions?reason=tiktok_reauthorization_required'],
  ],
  failed_deliveries: [['The failed conversions', 'conversions?status=failed']],
  no_events: [['What arrives, live', 'debugger']],
};

/** The zone an alert writes its times in, and a sentence saying which it is and why. */
export function alertTimeZone(context: Pick<AlertContext, 'advertiserTimeZone'>): { timeZone: string; note: string } {
  if (context.advertiserTimeZone === null) return { timeZone: 'UTC', note: "Times are in UTC: TikTok has not reported the advertiser's time zone yet." };
  return { timeZone: context.advertiserTimeZone, note: `Times are in ${context.advertiserTimeZone}, the TikTok advertiser's time zone, which the console's figures use too.` };
}

const link = (context: AlertContext, label: string, page: string) => `${label}: ${workspacePageUrl(context.publicUrl, context.workspaceId, page)}`;

function answersText(answers: readonly TikTokAnswer[]): string[] {
  if (answers.length === 0) return [];
  const lines = answers.map((a) => `- “${a.message}”${a.code === null ? '' : ` (code ${a.code})`}: ${a.conversions} conversion${a.conversions === 1 ? '' : 's'}`);
  return ['What TikTok answered the conversions that failed:', ...lines, ''];
}

/**
 * The mail's subject and body, and the webhook's text, for an incident that started: when (in a named zone), why,
 * TikTok's own words for the failures, and links to the console pages where it is dealt with.
 */
export function alertMessage(incident: { condition: AlertCondition; detail: string; openedAt: Date }, context: AlertContext, tiktokAnswers: readonly TikTokAnswer[] = []): AlertText {
  const title = conditionTitle(incident.condition);
  const { timeZone, note } = alertTimeZone(context);
  const text = [
    `${title} in the workspace “${context.workspaceName}”, since ${zonedTime(incident.openedAt, timeZone)}.`,
    '',
    incident.detail,
    '',
    ...answersText(tiktokAnswers),
    ...WHERE_TO_ACT[incident.condition].map(([label, page]) => link(context, label, page)),
    link(context, "This workspace's alerts", 'alerts'),
    '',
    `${note} You get this once per incident, and again only when it starts again after it ended.`,
  ].join('\n');
  return { subject: `[Signalbox] ${context.workspaceName}: ${title}`, text };
}

/** "Send a test alert": the same channels, a message that says it is a test, who asked and where the alerts are set. */
export function testAlertMessage(context: AlertContext, requestedBy: string, at: Date): AlertText {
  const { timeZone, note } = alertTimeZone(context);
  const text = [
    `A test alert for the workspace “${context.workspaceName}”, sent at ${zonedTime(at, timeZone)} at the request of ${requestedBy}.`,
    '',
    'Nothing needs you: when something does (TikTok to connect again, deliveries failing, no events arriving), the alert comes here, the same way.',
    '',
    link(context, "This workspace's alerts", 'alerts'),
    '',
    note,
  ].join('\n');
  return { subject: `[Signalbox] ${context.workspaceName}: test alert`, text };
}
