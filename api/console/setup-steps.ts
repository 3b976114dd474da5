import type { SetupStepView as SetupStep } from '../../contract/setup-views';
import { MATCH_RATE_TARGET, matchRate } from '../../domain/match-rate';

/** What the setup checklist is computed from: the workspace's state now. */
export interface SetupFacts {
  now: Date;
  allowedOrigins: readonly string[];
  /** The browser key used last and the page origin it was used from. */
  browserKeyUse: { keyName: string; origin: string; at: Date } | undefined;
  lastEventAt: Date | undefined;
  connection: { status: string; pixelCode: string | null; pixelName: string | null } | undefined;
  rules: number;
  firstDelivered: { eventTime: Date; tiktokEvent: string } | undefined;
  /** Delivered production conversions of the last 7 days (the newest, at most a sample) and how many carried a match-rate key. */
  matchRate: { delivered: number; matched: number };
}

type SetupStepKey = SetupStep['key'];

export const EVENTS_WITHIN_MS = 24 * 3_600_000;
export const MATCH_RATE_DAYS = 7;

/** "5 minutes ago": needs no time zone. */
export function ago(now: Date, at: Date): string {
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function trackingScript({ now, allowedOrigins, browserKeyUse }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (browserKeyUse !== undefined && allowedOrigins.includes(browserKeyUse.origin)) {
    return { done: true, explanation: `The tag with the browser key “${browserKeyUse.keyName}” sent events from ${browserKeyUse.origin} ${ago(now, browserKeyUse.at)}.` };
  }
  if (browserKeyUse !== undefined) {
    return { done: false, explanation: `The tag was last seen on ${browserKeyUse.origin}, which is no longer an allowed origin: add your shop's address to the allowed origins.` };
  }
  if (allowedOrigins.length === 0) {
    return { done: false, explanation: 'No page has sent events yet: create a browser key, put the tag on every page, and add your shop’s address to the allowed origins.' };
  }
  return { done: false, explanation: `No page of ${allowedOrigins.join(', ')} has sent events with a browser key yet: put the tag on every page of your shop.` };
}

function events({ now, lastEventAt }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (lastEventAt === undefined) return { done: false, explanation: 'No event has arrived yet: send one from the tag or from your server with an API key.' };
  if (now.getTime() - lastEventAt.getTime() <= EVENTS_WITHIN_MS) return { done: true, explanation: `The last event arrived ${ago(now, lastEventAt)}.` };
  return { done: false, explanation: `The last event arrived ${ago(now, lastEventAt)}, none in the last 24 hours: check the tag and your servers’ API key.` };
}

function tiktok({ connection }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (connection === undefined) return { done: false, explanation: 'TikTok is not connected: connect it and grant the three permissions Signalbox asks for.' };
  if (connection.status !== 'active') return { done: false, explanation: 'TikTok refused the connection’s token: connect TikTok again to authorise Signalbox.' };
  return { done: true, explanation: 'TikTok is connected with the permissions to send conversions and read ad performance.' };
}

function pixel({ connection }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (connection?.pixelCode == null) return { done: false, explanation: 'No pixel is chosen, so conversions have nowhere to go: choose the advertiser, then the pixel.' };
  return { done: true, explanation: `Conversions go to the pixel ${connection.pixelName ? `“${connection.pixelName}”` : connection.pixelCode}.` };
}

function rule({ rules }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (rules === 0) return { done: false, explanation: 'No conversion rule: add one to say which of your events are TikTok conversions, and what each is worth.' };
  return { done: true, explanation: `${rules} rule${rules === 1 ? ' turns' : 's turn'} your events into TikTok conversions.` };
}

function firstDelivery({ now, firstDelivered }: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  if (firstDelivered === undefined) return { done: false, explanation: 'No conversion has reached TikTok yet (test conversions do not count): Conversions says why each one was not sent.' };
  return { done: true, explanation: `The first, a ${firstDelivered.tiktokEvent}, reached TikTok ${ago(now, firstDelivered.eventTime)}.` };
}

function matchRateStep(facts: SetupFacts): Pick<SetupStep, 'done' | 'explanation'> {
  const rate = matchRate(facts.matchRate.delivered, facts.matchRate.matched);
  if (rate === null) return { done: false, explanation: `No conversion was delivered in the last ${MATCH_RATE_DAYS} days, so there is no match rate yet.` };
  const share = `${Math.round(rate * 100)}%`;
  if (rate >= MATCH_RATE_TARGET) return { done: true, explanation: `${share} of the conversions delivered in the last ${MATCH_RATE_DAYS} days carried a click ID, email or phone.` };
  return {
    done: false,
    explanation: `Only ${share} of the conversions delivered in the last ${MATCH_RATE_DAYS} days carried a click ID, email or phone: send the customer’s email or phone with each conversion.`,
  };
}

/** The checklist in the order a shop sets up, each step judged from `facts` alone. */
export function setupSteps(facts: SetupFacts): SetupStep[] {
  const step = (key: SetupStepKey, title: string, judge: (f: SetupFacts) => Pick<SetupStep, 'done' | 'explanation'>, path: string, label: string): SetupStep => ({
    key,
    title,
    ...judge(facts),
    link: { path, label },
  });
  return [
    step('tracking_script', 'Install the tracking tag', trackingScript, 'sources#install', 'Sources: the tag and allowed origins'),
    step('events', 'Events arriving (last 24 hours)', events, 'debugger', 'Event debugger'),
    step('tiktok', 'Connect TikTok', tiktok, 'sources#tiktok', 'Sources: TikTok'),
    step('pixel', 'Choose the pixel', pixel, 'sources#tiktok', 'Sources: TikTok'),
    step('rule', 'Add a conversion rule', rule, 'rules', 'Conversion rules'),
    step('first_delivery', 'First conversion delivered', firstDelivery, 'conversions', 'Conversions'),
    step('match_rate', `Match rate ${Math.round(MATCH_RATE_TARGET * 100)}% or more`, matchRateStep, 'overview#match-quality', 'Overview: match quality'),
  ];
}
