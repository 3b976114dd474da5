/* The change log in words: one sentence per entry, and each changed field as "label: before → after". */

import { RULE_DESTINATION_NAMES, type RuleDestination } from '../../contract/views';
import { reasonHelp } from '../../domain/reason-help';

type Fields = Record<string, unknown> | null;

export interface LoggedChange {
  action: string;
  target: string | null;
  before: Fields;
  after: Fields;
}

export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const quoted = (name: unknown) => `“${String(name)}”`;
/** An event name to copy: the console shows what is between backticks as code. */
const literal = (name: unknown) => `\`${String(name)}\``;
const days = (n: unknown) => `${String(n)} day${n === 1 ? '' : 's'}`;

/** A value as a person reads it; null is a dash. */
export function plainValue(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(plainValue).join(', ');
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.source === 'string') return valueText(object);
    const entries = Object.entries(object);
    return entries.length === 0 ? 'none' : entries.map(([key, inner]) => `${key} ${plainValue(inner)}`).join(', ');
  }
  return String(value);
}

/** A conversion rule's value (`{ source, amount?, currency? }`). */
function valueText(value: Record<string, unknown>): string {
  if (value.source === 'fixed') return `${String(value.amount)} ${String(value.currency)}`;
  if (value.source === 'order_total') return value.currency ? `the order total (in ${String(value.currency)} when the event has no currency)` : 'the order total';
  return 'no value';
}

/** The tag's choices for TikTok's pixel in the browser: each as a value, and as what the change did. */
const BROWSER_PIXEL: Record<string, { shown: string; clause: string }> = {
  off: { shown: 'off', clause: "stopped sending conversions to TikTok's pixel in the browser" },
  load: { shown: "Signalbox loads TikTok's pixel", clause: "had Signalbox load TikTok's pixel on the pages and send it each conversion" },
  page: { shown: 'the TikTok pixel already on the pages', clause: 'had Signalbox send each conversion to the TikTok pixel already on the pages' },
};

/** Each workspace setting's change as a clause, from its new value; `shown`: its value in words, when not plain. */
const SETTINGS: Record<string, { label: string; clause: (value: unknown) => string; shown?: (value: unknown) => string }> = {
  attributionWindowDays: { label: 'Attribution window', clause: (v) => `changed the attribution window to ${days(v)}` },
  testMode: { label: 'Test mode', clause: (v) => `turned test mode ${v ? 'on' : 'off'}` },
  testEventCode: { label: 'Test event code', clause: (v) => (v === null ? 'cleared the test event code' : `set the test event code to ${String(v)}`) },
  defaultPhoneRegion: { label: 'Default phone region', clause: (v) => `set the default phone region to ${String(v)}` },
  allowedOrigins: { label: 'Allowed origins', clause: (v) => (Array.isArray(v) && v.length === 0 ? 'removed every allowed origin' : `set the allowed origins to ${plainValue(v)}`) },
  consentRequired: { label: 'Consent required', clause: (v) => (v ? 'required consent before tracking' : 'stopped requiring consent before tracking') },
  exchangeRates: { label: 'Exchange rates', clause: (v) => (plainValue(v) === 'none' ? 'cleared the exchange rates' : `set the exchange rates to ${plainValue(v)}`) },
  eventRetentionDays: { label: 'Event retention', clause: (v) => `changed how long events are kept to ${days(v)}` },
  conversionRetentionDays: { label: 'Conversion retention', clause: (v) => `changed how long conversions are kept to ${days(v)}` },
  matchWithoutClick: { label: 'Match without a click', clause: (v) => `turned matching without a click ${v ? 'on' : 'off'}` },
  pipelinePartitions: { label: 'Pipeline partitions', clause: (v) => `set the pipeline partitions to ${String(v)}` },
  browserPixel: {
    label: 'TikTok pixel in the browser',
    clause: (v) => BROWSER_PIXEL[String(v)]?.clause ?? `set the TikTok pixel in the browser to ${String(v)}`,
    shown: (v) => BROWSER_PIXEL[String(v)]?.shown ?? String(v),
  },
  limitedDataUse: { label: 'Limited Data Use', clause: (v) => `turned TikTok's Limited Data Use ${v ? 'on' : 'off'}` },
};

/** Labels of the fields other entries record (rules, keys, the TikTok connection, roles). */
const FIELD_LABELS: Record<string, string> = {
  event: 'Your event',
  tiktokEvent: 'TikTok event',
  value: 'Value',
  serverOnly: 'Sent to TikTok from the server only',
  destination: 'Send to',
  name: 'Name',
  kind: 'Kind',
  displayPrefix: 'Starts with',
  revokedAt: 'Revoked at',
  source: 'Connected',
  status: 'Status',
  advertiserId: 'Advertiser',
  advertiserName: 'Advertiser name',
  pixelCode: 'Pixel',
  pixelName: 'Pixel name',
  appId: 'TikTok App ID',
  offlineEventSetId: 'Offline Event Set',
  offlineEventSetName: 'Offline Event Set name',
  crmEventSetId: 'CRM Event Set',
  crmEventSetName: 'CRM Event Set name',
  role: 'Role',
  expiresAt: 'Expires at',
  requeued: 'Sent again',
  reason: 'Reason',
  eventFrom: 'Conversions from',
  eventTo: 'Conversions before',
  searched: 'Searched',
  onReauthorization: 'Alert when TikTok needs connecting again',
  failedSharePercent: 'Alert at this share of failed deliveries (%)',
  silenceMinutes: 'Alert after minutes without events',
  emailEnabled: 'Alerts by email',
  emailRecipients: 'Alert emails go to',
  webhookUrl: 'Alert webhook',
  type: 'Type',
  signatureHeader: 'Signature header',
  mapping: 'Mapping',
  secret: 'Signing secret',
  sent: 'Sent',
  notSent: 'Not sent',
  days: 'Days back',
  events: 'Past events to send',
  conversions: 'Conversions to make',
};

const SOURCE_TYPES: Record<string, string> = { shopify: 'Shopify source', webhook: 'webhook source' };

function sentence(clauses: string[]): string {
  const text = clauses.length <= 1 ? (clauses[0] ?? '') : `${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1) as string}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function settingsClauses(after: Fields): string[] {
  return Object.entries(after ?? {}).map(([field, value]) => SETTINGS[field]?.clause(value) ?? `changed ${field} to ${plainValue(value)}`);
}

const KEY_KINDS: Record<string, string> = { secret: 'secret key, for servers', browser: 'browser key, for web pages', app: 'app key, for mobile apps' };

/** Where a rule sends its conversions, as the rule form names it. */
const destinationName = (destination: string) => RULE_DESTINATION_NAMES[destination as RuleDestination] ?? destination;

function ruleText(rule: Fields): string {
  const value = rule?.value as Record<string, unknown> | undefined;
  const worth = value === undefined || value.source === 'none' ? 'with no value' : `worth ${valueText(value)}`;
  const channel = rule?.serverOnly === true ? ', sent from the server only (not through the pixel in the browser)' : '';
  const destination = typeof rule?.destination === 'string' && rule.destination !== 'auto' ? `, sent to ${destinationName(rule.destination)}` : '';
  return `${literal(rule?.event)} → ${String(rule?.tiktokEvent)}, ${worth}${channel}${destination}`;
}

/** Names of TikTok's advertisers and pixels, for entries logged before names were: the connection's current ones. */
export interface TikTokNames {
  advertiser(advertiserId: string): string | undefined;
  pixel(pixelCode: string): string | undefined;
}

const NO_NAMES: TikTokNames = { advertiser: () => undefined, pixel: () => undefined };

/** "the TikTok advertiser “Fern Ads”", or by its ID when it has no known name. */
function named(kind: string, id: unknown, name: unknown, lookup: (id: string) => string | undefined): string {
  const known = typeof name === 'string' && name !== '' ? name : lookup(String(id));
  return known === undefined ? `${kind} ${String(id)}` : `${kind} ${quoted(known)}`;
}

function connectionClause(action: string, before: Fields, after: Fields, names: TikTokNames): string | undefined {
  switch (action) {
    case 'tiktok.connect':
      return `${before ? 'connected TikTok again' : 'connected TikTok'} ${after?.source === 'manual' ? 'with a token from Events Manager' : 'through TikTok login'}`;
    case 'tiktok.advertiser':
      return `chose ${named('the TikTok advertiser', after?.advertiserId, after?.advertiserName, names.advertiser)}`;
    case 'tiktok.pixel':
      return `chose ${named('the pixel', after?.pixelCode, after?.pixelName, names.pixel)}`;
    case 'tiktok.app':
      return after?.appId == null ? 'removed the TikTok App ID' : `set the TikTok App ID to ${String(after.appId)}`;
    case 'tiktok.offline_event_set':
      return after?.offlineEventSetId == null ? 'removed the Offline Event Set' : `chose ${named('the Offline Event Set', after.offlineEventSetId, after.offlineEventSetName, () => undefined)}`;
    case 'tiktok.crm_event_set':
      return after?.crmEventSetId == null ? 'removed the CRM Event Set' : `chose ${named('the CRM Event Set', after.crmEventSetId, after.crmEventSetName, () => undefined)}`;
    case 'tiktok.disconnect':
      return 'disconnected TikTok';
    case 'tiktok.stats_pull':
      return `asked TikTok for the latest ad statistics of ${named('the advertiser', after?.advertiserId, after?.advertiserName, names.advertiser)}`;
    default:
      return undefined;
  }
}

function retryClause(after: Fields): string {
  const count = Number(after?.requeued ?? 0);
  const what = `${count} conversion${count === 1 ? '' : 's'}`;
  if (after?.refusedToken) return `sent again ${what} TikTok had refused for the old token`;
  if (after?.conversionIds !== undefined) return `sent ${what} again`;
  return `sent ${what} again by filter`;
}

const CHANNEL_NAMES: Record<string, string> = { email: 'by email', webhook: 'to the webhook' };
const channelList = (value: unknown) => (Array.isArray(value) ? value.map((channel) => CHANNEL_NAMES[String(channel)] ?? String(channel)).join(' and ') : '');

function testAlertClause(after: Fields): string {
  const sent = channelList(after?.sent);
  const notSent = channelList(after?.notSent);
  if (sent === '') return `could not send a test alert ${notSent}`;
  return `sent a test alert ${sent}${notSent ? `; it could not be sent ${notSent}` : ''}`;
}

const counted = (n: unknown, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

function sendPastClause(target: string | null, after: Fields): string {
  const what = `${counted(after?.events, 'stored event', 'stored events')} as ${counted(after?.conversions, 'conversion', 'conversions')}`;
  return `sent the past ${days(after?.days)} of ${literal(target)} to TikTok: ${what}`;
}

/** What an erasure removed, one and many, in the order a person reads them. */
const ERASED: Record<string, [string, string]> = {
  eventsDeleted: ['event deleted', 'events deleted'],
  eventsStripped: ['event stripped of personal data', 'events stripped of personal data'],
  conversionsAnonymised: ['conversion anonymised', 'conversions anonymised'],
  visitors: ['visitor profile', 'visitor profiles'],
  clicks: ['ad click', 'ad clicks'],
  identityLinks: ['identity link', 'identity links'],
  carts: ['remembered cart', 'remembered carts'],
};
const erasedLabel = (kind: string, count: number) => ERASED[kind]?.[count === 1 ? 0 : 1] ?? kind;
const erasedCounts = (after: Fields) => {
  const counts = (after?.erased ?? {}) as Record<string, unknown>;
  return Object.keys(ERASED).flatMap((kind) => (kind in counts ? [[kind, Number(counts[kind])] as const] : []));
};

const erasedText = (after: Fields) =>
  erasedCounts(after)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${erasedLabel(kind, count)}`)
    .join(', ');

function erasureClause(after: Fields): string {
  const counts = erasedText(after);
  return counts === '' ? "erased one person's data (nothing was stored about them)" : `erased one person's data: ${counts}`;
}

/** Shopify's shop/redact: what a Shopify source had stored from the shop went. */
function shopRedactClause(after: Fields): string {
  const counts = erasedText(after);
  return `removed what the Shopify source ${quoted(after?.name)} stored from the shop, as Shopify asks 48 hours after the shop removes the app: ${counts === '' ? 'nothing was stored' : counts}`;
}

/** "Changed the attribution window to 7 days", "Created API key “backend” (secret key, for servers)". */
export function changeSummary({ action, target, before, after }: LoggedChange, names: TikTokNames = NO_NAMES): string {
  const role = (fields: Fields) => String(fields?.role);
  const clause: Record<string, () => string> = {
    'settings.update': () => sentence(settingsClauses(after)),
    'rule.put': () => (before ? `changed the rule ${ruleText(after)}` : `added the rule ${ruleText(after)}`),
    'rule.delete': () => `deleted the rule for ${literal(target)}`,
    'key.create': () => `created API key ${quoted(after?.name)} (${KEY_KINDS[String(after?.kind)] ?? String(after?.kind)})`,
    'key.revoke': () => `revoked API key ${quoted(before?.name)}`,
    'member.put': () => (before ? `changed the role of ${target} to ${role(after)}` : `gave ${target} access as ${role(after)}`),
    'member.role': () => `changed the role of ${target} from ${role(before)} to ${role(after)}`,
    'member.remove': () => `removed ${target} from the workspace`,
    'invitation.create': () => `invited ${target} as ${role(after)}`,
    'invitation.revoke': () => `withdrew the invitation of ${target}`,
    'invitation.accept': () => `accepted the invitation and joined as ${role(after)}`,
    'workspace.create': () => `created the workspace ${quoted(after?.name)}`,
    'workspace.rename': () => `renamed the workspace from ${quoted(before?.name)} to ${quoted(after?.name)}`,
    'conversions.retry': () => retryClause(after),
    'erasure.run': () => erasureClause(after),
    'source.shop_redact': () => shopRedactClause(after),
    'alerts.update': () => 'changed the alerts',
    'source.create': () => `added the ${SOURCE_TYPES[String(after?.type)] ?? 'source'} ${quoted(after?.name)}`,
    'source.update': () => `changed the ${SOURCE_TYPES[String(after?.type)] ?? 'source'} ${quoted(after?.name)}`,
    'source.secret': () => `gave the source ${quoted(after?.name)} a new signing secret (${String(after?.secret)})`,
    'source.delete': () => `deleted the ${SOURCE_TYPES[String(before?.type)] ?? 'source'} ${quoted(before?.name)}`,
    'alerts.test': () => testAlertClause(after),
    'rule.send_past': () => sendPastClause(target, after),
    'shopify.connect': () => `${before ? 'connected the Shopify shop again' : 'connected the Shopify shop'} ${String(after?.shopDomain)}`,
    'shopify.disconnect': () => `disconnected the Shopify shop ${String(before?.shopDomain)}`,
    'shopify.uninstalled': () => 'reported that the Signalbox app was removed from the shop, so the connection was forgotten',
  };
  const text = clause[action]?.() ?? connectionClause(action, before, after, names) ?? `${action.replace(/[._]/g, ' ')}${target ? ` ${target}` : ''}`;
  return sentence([text]);
}

const IDENTIFIERS: Record<string, string> = { user_id: 'User IDs found', anonymous_id: 'Visitors found', email_sha256: 'Emails found (hashed)', phone_sha256: 'Phones found (hashed)' };

/** An erasure's counts, one line each: what the identity walk found and what went. */
export function erasureChanges(after: Fields): FieldChange[] {
  const counts = (field: string) => Object.entries((after?.[field] ?? {}) as Record<string, unknown>);
  const found = counts('identifiers').map(([kind, count]) => ({ field: IDENTIFIERS[kind] ?? kind, before: '–', after: String(count) }));
  const erased = erasedCounts(after).map(([kind, count]) => {
    const label = erasedLabel(kind, 2);
    return { field: label.charAt(0).toUpperCase() + label.slice(1), before: '–', after: String(count) };
  });
  return [...found, ...erased];
}

/** The fields that differ between before and after, in words. */
export function fieldChanges({ action, before, after }: LoggedChange): FieldChange[] {
  if (action === 'erasure.run' || action === 'source.shop_redact') return erasureChanges(after);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  // A reason (a send-again's filter) reads as its label, as on the Conversions page.
  const text = (field: string, value: unknown) => {
    if (field === 'reason' && typeof value === 'string') return reasonHelp(value)?.label ?? value;
    if (field === 'destination' && typeof value === 'string') return destinationName(value);
    const shown = action === 'settings.update' ? SETTINGS[field]?.shown : undefined;
    return shown === undefined || value === undefined ? plainValue(value) : shown(value);
  };
  return fields
    .map((field) => ({ field: (action === 'settings.update' ? SETTINGS[field]?.label : FIELD_LABELS[field]) ?? field, before: text(field, before?.[field]), after: text(field, after?.[field]) }))
    .filter((change) => change.before !== change.after);
}
