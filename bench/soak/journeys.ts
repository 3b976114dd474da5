import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger, Source } from './ledger';
import { BROWSER_USER_AGENT, type Message, type ShopClients } from './senders';
import { SHOP_ORIGIN } from './shops';

/** As the tracking script names itself in `context.library` (web/src/tracker.ts). */
const TRACKING_SCRIPT = { name: 'signalbox.js', version: '1.1.0' };
/** As Segment's iOS library names itself. */
const IOS_LIBRARY = { name: 'analytics-ios', version: '4.1.8' };

/** What a journey sends with, and how it writes its messages down. */
export interface JourneyContext {
  /** Unique within the run: journey `n` of run `runId`. */
  id: string;
  clients: ShopClients;
  ledger: Ledger;
  /** A person's pause between two calls; ends at once when the run is abandoned. */
  pause(): Promise<void>;
}

type Fields = Record<string, unknown>;

/** A message the ledger knows: its source, workspace and, for events a rule maps, the conversion it must make. */
function noted(context: JourneyContext, source: Source, message: Fields): Message {
  const messageId = randomUUID();
  const event = message.event;
  const orderId = (message.properties as Fields | undefined)?.order_id;
  const eventId = event === 'purchase' ? (orderId as string) : event === 'add_to_cart' ? messageId : undefined;
  context.ledger.send(messageId, { source, workspaceId: context.clients.shop.workspaceId, ...(eventId === undefined ? {} : { eventId }) });
  return { messageId, timestamp: new Date().toISOString(), ...message };
}

const product = (n: number) => ({ product_id: `sku-${n % 40}`, name: `Fern ${n % 40}`, price: 12 + (n % 40), quantity: 1 + (n % 3), currency: 'USD' });

/** A browser with the tracking script: its anonymous ID, the TikTok click it landed with (if any), its user once known. */
function browser(context: JourneyContext, clicked: boolean) {
  const anonymousId = randomUUID();
  const ttclid = clicked ? `E.C.P.${randomUUID().replace(/-/g, '')}` : undefined;
  const ttp = `${randomUUID().replace(/-/g, '').slice(0, 27)}`;
  let userId: string | undefined;
  const send = (type: string, path: string, fields: Fields) => {
    const search = ttclid !== undefined && path === '/' ? `?utm_source=tiktok&ttclid=${ttclid}` : '';
    const page = { url: `${SHOP_ORIGIN}${path}${search}`, path, search, referrer: ttclid === undefined ? '' : 'https://www.tiktok.com/', title: 'Fern shop' };
    const messageContext = { library: TRACKING_SCRIPT, page, userAgent: BROWSER_USER_AGENT, locale: 'en-US', ttp, ...(ttclid === undefined ? {} : { ttclid }) };
    return context.clients.web([noted(context, 'web', { type, anonymousId, ...(userId === undefined ? {} : { userId }), context: messageContext, ...fields })]);
  };
  return {
    anonymousId,
    page: (path: string) => send('page', path, { properties: {} }),
    track: (event: string, properties: Fields, path = '/shop') => send('track', path, { event, properties }),
    identify: (id: string, traits: Fields) => {
      userId = id;
      return send('identify', '/account', { traits });
    },
  };
}

/** A phone with the shop's iOS app (Segment's library): the device's anonymous ID, and its advertising ID when allowed. */
function phone(context: JourneyContext, advertisingId?: string) {
  const anonymousId = randomUUID();
  const device = { type: 'ios', id: randomUUID().toUpperCase(), model: 'iPhone16,2', ...(advertisingId === undefined ? { adTrackingEnabled: false } : { advertisingId, adTrackingEnabled: true }) };
  const appContext = { library: IOS_LIBRARY, app: { name: 'Fern shop', version: '4.2.0', build: '420' }, device, os: { name: 'iOS', version: '18.1' }, locale: 'en-US' };
  const send = (fields: Fields) => context.clients.app([noted(context, 'app', { anonymousId, context: appContext, ...fields })]);
  return {
    screen: (name: string) => send({ type: 'screen', name, properties: {} }),
    identify: (traits: Fields) => send({ type: 'identify', traits }),
    track: (event: string, properties: Fields) => send({ type: 'track', event, properties }),
  };
}

const order = (context: JourneyContext, total: number) => ({ order_id: `${context.id}-order`, total, currency: 'USD' });
const emailOf = (context: JourneyContext) => `${context.id}@customers.example`;

/** Looks around, now and then puts something in the cart, buys nothing. Half came from a TikTok ad. */
async function browse(context: JourneyContext, n: number): Promise<void> {
  const visitor = browser(context, n % 2 === 0);
  await visitor.page('/');
  await context.pause();
  await visitor.track('Product Viewed', product(n));
  if (n % 3 === 0) {
    await context.pause();
    await visitor.track('add_to_cart', product(n), '/cart');
  }
}

/** Buys on the website: most after a TikTok ad click, some without one. */
async function webPurchase(context: JourneyContext, n: number): Promise<void> {
  const visitor = browser(context, n % 5 !== 0);
  await visitor.page('/');
  await context.pause();
  await visitor.track('add_to_cart', product(n), '/cart');
  await context.pause();
  await visitor.identify(`${context.id}-user`, { email: emailOf(context), first_name: 'Ann' });
  await visitor.track('purchase', order(context, 20 + (n % 80)), '/checkout/done');
}

/** Clicks an ad and signs in on the website; the backend records the purchase through @signalbox/api. */
async function backendPurchase(context: JourneyContext, n: number): Promise<void> {
  const visitor = browser(context, true);
  await visitor.page('/');
  await context.pause();
  const userId = `${context.id}-user`;
  const { sdk } = context.clients;
  const identify = noted(context, 'sdk', { type: 'identify' });
  await sdk.identify(userId, { email: emailOf(context) }, { anonymousId: visitor.anonymousId, messageId: identify.messageId });
  await context.pause();
  const purchase = noted(context, 'sdk', { type: 'track', event: 'purchase', properties: order(context, 30 + (n % 50)) });
  await sdk.track({ event: 'purchase', userId, properties: purchase.properties as Fields, messageId: purchase.messageId });
}

/** Clicks an ad on the website and gives an email there; later enters the same email in the app and buys in the app. */
async function crossDevice(context: JourneyContext, n: number): Promise<void> {
  const visitor = browser(context, true);
  await visitor.page('/');
  await visitor.identify(`${context.id}-user`, { email: emailOf(context) });
  await context.pause();
  const app = phone(context);
  await app.screen('Home');
  await app.identify({ email: emailOf(context) });
  await context.pause();
  await app.track('purchase', order(context, 15 + (n % 30)));
}

/** Installed the app, lets it use the advertising ID, and buys in the app without any web visit. */
async function appPurchase(context: JourneyContext, n: number): Promise<void> {
  const app = phone(context, randomUUID().toUpperCase());
  await app.screen('Home');
  await context.pause();
  await app.track('add_to_cart', product(n));
  await app.track('purchase', order(context, 10 + (n % 20)));
}

/** The mix, by weight: most visitors only browse; purchases come from the website, backends and the app. */
const JOURNEYS: readonly [number, (context: JourneyContext, n: number) => Promise<void>][] = [
  [4, browse],
  [3, webPurchase],
  [2, backendPurchase],
  [2, crossDevice],
  [1, appPurchase],
];
const TOTAL_WEIGHT = JOURNEYS.reduce((sum, [weight]) => sum + weight, 0);

/** Journey `n` of the mix (a fixed cycle through the weights, so any stretch of the run has them all). */
export function runJourney(context: JourneyContext, n: number): Promise<void> {
  let slot = n % TOTAL_WEIGHT;
  for (const [weight, journey] of JOURNEYS) {
    if (slot < weight) return journey(context, n);
    slot -= weight;
  }
  throw new Error('unreachable: the slot is below the total weight');
}

/** A person's pause between two calls: 0.2 to 1.5 s. */
export function thinkTime(abandoned: AbortSignal): Promise<void> {
  return sleep(200 + Math.random() * 1_300, undefined, { signal: abandoned }).catch(() => undefined);
}
