/** Row shapes as PostgreSQL returns them (timestamptz → Date, numeric → number, bigint → string). */
import type { ClickSource } from '../domain/attribution';
import type { RetryClass } from '../domain/delivery-retry';
import type { MatchKey, MatchKeySource, MatchKeySources } from '../domain/match-keys';
import type { TikTokEventSource } from '../domain/tiktok-wire';

export type ConversionStatus = 'pending' | 'delivered' | 'skipped' | 'failed';
export type IdentityKind = 'anonymous_id' | 'user_id' | 'email_sha256' | 'phone_sha256';
export type ValueSource = 'order_total' | 'fixed' | 'none';

/** How the tracking tag treats TikTok's pixel: `off` (never touches it), `load` (loads it) or `page` (uses the page's own). */
export type BrowserPixelMode = 'off' | 'load' | 'page';

export interface WorkspaceRow {
  id: string;
  name: string;
  attribution_window_days: number;
  test_mode: boolean;
  test_event_code: string | null;
  default_phone_region: string;
  /** Exact origins (`https://shop.example`) that browser keys are accepted from. */
  allowed_origins: string[];
  /** The tracking script stores and sends no identifier until the visitor grants consent. */
  consent_required: boolean;
  /** One unit of each currency in the advertiser's currency, as exact decimal text; null: reports never convert. */
  exchange_rates: Record<string, string> | null;
  /** Raw events older than this are deleted, or stripped of everything personal when a conversion refers to them. */
  event_retention_days: number;
  conversion_retention_days: number;
  /** A conversion without a click inside the attribution window is sent all the same, for TikTok to match on its other keys. */
  /** Group workflows the workspace's conversions are split among (1–16). */
  match_without_click: boolean;
  pipeline_partitions: number;
  /** Whether the tracking tag leaves TikTok's pixel alone, loads it, or drives the page's own. */
  browser_pixel: BrowserPixelMode;
  /** TikTok's Limited Data Use flag on every event, from the server and from the pixel. */
  limited_data_use: boolean;
  created_at: Date;
  updated_at: Date;
}

export type ApiKeyKind = 'secret' | 'browser' | 'app';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  kind: ApiKeyKind;
  key_hash: string;
  display_prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  /** Browser keys: when ingest last accepted events sent with it, and the page origin they came from. */
  last_used_at: Date | null;
  last_used_origin: string | null;
}

/** What every event has, in the application's names: ingest writes it, the listings read it. */
export interface EventFields {
  messageId: string;
  type: string;
  eventName: string | null;
  userId: string | null;
  anonymousId: string | null;
  occurredAt: Date;
}

export interface EventRow {
  id: string;
  workspace_id: string;
  message_id: string;
  type: string;
  event_name: string | null;
  user_id: string | null;
  anonymous_id: string | null;
  occurred_at: Date;
  received_at: Date;
  /** The UTC day it was stored on: its partition of `events`. */
  received_on: Date;
  message: Record<string, unknown>;
  /** A repeated order_id / event_id: the conversion this event repeats (no new conversion was made). */
  duplicate_of_conversion_id: string | null;
  /** When retention or an erasure reduced `message` to its non-personal skeleton. */
  stripped_at: Date | null;
}

export interface VisitorRow {
  workspace_id: string;
  anonymous_id: string;
  ttclid: string | null;
  ttclid_captured_at: Date | null;
  ttp: string | null;
  ttp_seen_at: Date | null;
  first_seen_at: Date;
  last_seen_at: Date;
  /** The latest page view's device details (match keys); cleared once older than the attribution window. */
  device_ip: string | null;
  device_user_agent: string | null;
  device_page_url: string | null;
  device_seen_at: Date | null;
}

export interface ClickRow {
  workspace_id: string;
  anonymous_id: string;
  ttclid: string;
  captured_at: Date;
  page_url: string | null;
  campaign_id: string | null;
  adgroup_id: string | null;
  ad_id: string | null;
}

export interface IdentityLinkRow {
  workspace_id: string;
  from_kind: IdentityKind;
  from_value: string;
  to_kind: IdentityKind;
  to_value: string;
  created_at: Date;
}

export interface ConversionRuleRow {
  workspace_id: string;
  source_event: string;
  tiktok_event: string;
  /** TikTok standard events each matching event is also sent as, each a conversion of its own (at most 3). */
  also_send_as: string[];
  value_source: ValueSource;
  fixed_value: number | null;
  currency: string | null;
  /** Sent to TikTok by the server only: the tracking tag keeps these events from the browser pixel. */
  server_only: boolean;
  /** Where its conversions go: `auto` (app events to the app, offline events to the Offline Event Set, else the pixel), or one source. */
  destination: ConversionDestination;
  created_at: Date;
  updated_at: Date;
}

/** TikTok's event sources a rule can send to (reference §1.1 `event_source`), or `auto`. */
export type ConversionDestination = 'auto' | 'web' | 'app' | 'offline' | 'crm';

export type TikTokConnectionStatus = 'active' | 'reauthorization_required';

export interface AccessibleAdvertiser {
  advertiserId: string;
  advertiserName: string;
}

export interface TikTokConnectionRow {
  workspace_id: string;
  access_token_ciphertext: string;
  advertiser_id: string | null;
  pixel_code: string | null;
  /** The pixel's name as TikTok listed it when it was chosen; null for a manual token's pixel. */
  pixel_name: string | null;
  app_id: string | null;
  /** The advertiser's Offline Event Set (`event_source` `offline`) and CRM Event Set (`crm`) chosen, with their names as TikTok listed them. */
  offline_event_set_id: string | null;
  offline_event_set_name: string | null;
  crm_event_set_id: string | null;
  crm_event_set_name: string | null;
  source: string;
  status: TikTokConnectionStatus;
  granted_scopes: string[] | null;
  accessible_advertisers: AccessibleAdvertiser[] | null;
  authorized_at: Date | null;
  stats_pulled_at: Date | null;
  stats_pull_error: string | null;
  /** ISO 4217 code of the advertiser's account: spend and TikTok's conversion value are in it. */
  advertiser_currency: string | null;
  /** IANA zone of the advertiser's account: TikTok's report days are its days. */
  advertiser_time_zone: string | null;
  advertiser_info_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface OAuthStateUseRow {
  nonce: string;
  workspace_id: string;
  expires_at: Date;
  used_at: Date;
}

export type AdLevel = 'campaign' | 'adgroup' | 'ad';

export interface AdEntityRow {
  workspace_id: string;
  level: AdLevel;
  entity_id: string;
  advertiser_id: string;
  campaign_id: string | null;
  adgroup_id: string | null;
  name: string | null;
  status: string | null;
  updated_at: Date;
}

export interface ConversionRow {
  id: string;
  workspace_id: string;
  event_row_id: string;
  /** The UTC day its event was stored on: the event's partition. */
  event_received_on: Date;
  /** The event's user and anonymous IDs, kept when the event is gone (erasure clears them). */
  user_id: string | null;
  anonymous_id: string | null;
  message_id: string;
  source_event: string;
  tiktok_event: string;
  event_id: string;
  /** Which of its rule's TikTok events it is: 0 the rule's own, 1… its `also_send_as` events in order. */
  rule_event_index: number;
  event_time: Date;
  event_source: TikTokEventSource;
  value: number | null;
  currency: string | null;
  status: ConversionStatus;
  reason: string | null;
  /** The workflow that processes it: its workspace's group workflow (older rows: a workflow of their own). */
  workflow_id: string;
  /** The run of that workflow that claimed it last (continue-as-new starts a new run under the same ID). */
  workflow_run_id: string | null;
  /** When its workflow first claimed it (per-conversion design: when its own workflow was started). */
  workflow_started_at: Date | null;
  /** The group that holds it while it is processed, and until when; a lease that ran out may be claimed again. */
  claim_id: string | null;
  claimed_until: Date | null;
  /** The TikTok request it was last sent in (`tiktok_requests`). */
  delivery_request_id: string | null;
  attempts: number;
  ttclid: string | null;
  click_captured_at: Date | null;
  click_anonymous_id: string | null;
  click_campaign_id: string | null;
  click_adgroup_id: string | null;
  click_ad_id: string | null;
  /** Where the click was found: `message` (the converting event carried it) or `visitor` (a visitor's profile); null without one. */
  click_source: ClickSource | null;
  /** The order's number as the shop shows it (a Shopify order's `#9074`); null without one, and before it was kept. */
  order_name: string | null;
  ttp: string | null;
  /** Sent with no click inside the attribution window (the workspace's `match_without_click`): TikTok matched it on other keys. */
  sent_without_click: boolean;
  test_mode: boolean;
  tiktok_code: number | null;
  tiktok_message: string | null;
  tiktok_request_id: string | null;
  request_payload: Record<string, unknown> | null;
  response_body: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  /** Found at ingest without stopping the conversion (e.g. `value_unreadable`); shown with it. */
  warnings: ConversionWarning[];
  /** Where each match key sent to TikTok came from; null until the payload is built. */
  match_keys: MatchKeySources | null;
  /** How the click's visitor was reached from the converting message; null when no click was found. */
  identity_path: IdentityPathNode[] | null;
}

export interface ConversionWarning {
  /** Machine-readable, e.g. `value_unreadable`. */
  code: string;
  /** The message field concerned, e.g. `properties.total`. */
  field?: string;
  /** What was found there, as JSON text, shortened. */
  found?: string;
  /** One sentence for a person. */
  message: string;
}

export type { MatchKey, MatchKeySource, MatchKeySources };

/** One node of the identity walk; email and phone appear only as their SHA-256. */
export interface IdentityPathNode {
  kind: IdentityKind;
  value: string;
}

/**
 * The timeline of one conversion after ingest (its `created_at` is "received"): each step's result and each delivery
 * attempt with TikTok's answer. `detail` holds codes, counts and IDs, never plaintext PII.
 */
export type ConversionStep = 'identity_resolved' | 'window_checked' | 'payload_built' | 'delivery_attempt' | 'outcome' | 'retry_requested';

export interface ConversionHistoryRow {
  id: string;
  conversion_id: string;
  at: Date;
  step: ConversionStep;
  detail: Record<string, unknown>;
}

/** Who changed what in a workspace's settings; secrets never appear in `before` or `after`. */
export interface ChangeLogRow {
  id: string;
  workspace_id: string;
  at: Date;
  /** `operator` (the admin token), `user:<id>` (a console account), or `system`. */
  actor: string;
  /** e.g. `rule.put`, `rule.delete`, `key.create`, `key.revoke`, `settings.update`, `tiktok.connect`. */
  action: string;
  /** The object changed, e.g. the rule's source event or the key's ID. */
  target: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export type Role = 'owner' | 'editor' | 'viewer';

/** A person who signs in to the console. */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  /** When the address was proven (a mailed link used) or an operator vouched for it; null: not confirmed. */
  email_confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: Date;
}

export interface ConsoleSessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  csrf_token: string;
  user_agent: string | null;
  address: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/** Who held an invitation's link: only the mailbox, the operator (trusted), or a console inviter (no mail server). */
export type InvitationDelivery = 'mail' | 'operator' | 'shown';

export interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string;
  delivery: InvitationDelivery;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_by: string | null;
  revoked_at: Date | null;
}

export interface SignInFailureRow {
  id: string;
  email: string;
  address: string;
  at: Date;
}

/** A request the ingest API refused whose workspace is known (event debugger). */
export interface IngestRefusalRow {
  id: string;
  workspace_id: string;
  at: Date;
  status: number;
  error: string;
  message: string;
  issues: string[] | null;
  path: string;
  key_prefix: string | null;
  /** The request's `Origin` header: the web page that sent it. */
  origin: string | null;
  /** Why ingest refused it, finer than `error` (api/http/ingest-refusal.ts); null for an invalid body and the like. */
  reason: string | null;
}

export interface EventCountHourlyRow {
  workspace_id: string;
  hour: Date;
  type: string;
  /** '' for messages without a name. */
  event_name: string;
  events: string;
  last_event_id: string;
}

export interface RollupProgressRow {
  name: string;
  rolled_through: Date;
  watermarks: Record<string, string>;
}

export interface ConversionCountHourlyRow {
  workspace_id: string;
  hour: Date;
  tiktok_event: string;
  status: ConversionStatus;
  reason: string;
  tiktok_code: number;
  test_mode: boolean;
  sent_without_click: boolean;
  conversions: string;
  shareable: string;
}

/** Delivered production conversions per day of the advertiser's zone, click entity and currency (see delivered-daily.ts). */
export interface DeliveredConversionDailyRow {
  workspace_id: string;
  day: string;
  /** '' when the click named none. */
  campaign_id: string;
  adgroup_id: string;
  ad_id: string;
  currency: string;
  conversions: string;
  value: string | null;
}

export interface DeliveredConversionDailyZoneRow {
  workspace_id: string;
  time_zone: string;
}

/** One `event/track` request: the envelope, the conversions whose events it carried (in order), and TikTok's answer. */
export interface TikTokRequestRow {
  id: string;
  workspace_id: string;
  claim_id: string;
  event_source: string;
  event_source_id: string;
  test_event_code: string | null;
  conversion_ids: string[];
  sent_at: Date;
  /** Null while the answer is unknown (not back yet, or the sender crashed before recording it). */
  answered_at: Date | null;
  outcome: 'success' | 'retryable' | 'permanent' | null;
  http_status: number | null;
  tiktok_code: number | null;
  tiktok_message: string | null;
  tiktok_request_id: string | null;
}

/** State of a workspace's group workflow shared with ingest (wake-ups) and kept across its runs (backoff). */
export interface ConversionPipelineRow {
  workspace_id: string;
  retry_class: RetryClass | null;
  /** Consecutive transient failures of `retry_class`. */
  class_failures: number;
  /** No delivery before this time (TikTok failed transiently). */
  resume_at: Date | null;
  updated_at: Date;
}

/** The group workflow of one partition of a workspace's conversions. */
export interface ConversionPipelinePartitionRow {
  workspace_id: string;
  partition: number;
  /** The workflow found nothing to claim and waits for a wake-up signal (or has ended: its partition was retired). */
  idle: boolean;
  updated_at: Date;
}

/** One erasure request; the identifiers appear only as keyed digests (HMAC-SHA-256 with the server's SECRET_KEY). */
export interface ErasureRequestRow {
  id: string;
  workspace_id: string;
  requested_at: Date;
  actor: string;
  identifiers: { kind: IdentityKind; digest: string }[];
  /** Rows removed or anonymised, per table. */
  erased: Record<string, number>;
}

export type PastEventRunStatus = 'running' | 'done' | 'rule_removed';

/** A run of "send past events": a rule's stored events of the last `days` made conversions, batch after batch. */
export interface PastEventRunRow {
  id: string;
  workspace_id: string;
  source_event: string;
  days: number;
  since: Date;
  until: Date;
  requested_by: string;
  events_to_send: number;
  conversions_to_send: number;
  events_scanned: number;
  conversions_created: number;
  cursor_received_at: Date | null;
  cursor_event_id: string | null;
  status: PastEventRunStatus;
  started_at: Date;
  finished_at: Date | null;
}

declare module 'knex/types/tables' {
  interface Tables {
    workspaces: WorkspaceRow;
    api_keys: ApiKeyRow;
    events: EventRow;
    visitors: VisitorRow;
    clicks: ClickRow;
    identity_links: IdentityLinkRow;
    conversion_rules: ConversionRuleRow;
    tiktok_connections: TikTokConnectionRow;
    conversions: ConversionRow;
    oauth_state_uses: OAuthStateUseRow;
    ad_entities: AdEntityRow;
    conversion_history: ConversionHistoryRow;
    change_log: ChangeLogRow;
    users: UserRow;
    memberships: MembershipRow;
    console_sessions: ConsoleSessionRow;
    invitations: InvitationRow;
    sign_in_failures: SignInFailureRow;
    ingest_refusals: IngestRefusalRow;
    event_counts_hourly: EventCountHourlyRow;
    rollup_progress: RollupProgressRow;
    conversion_counts_hourly: ConversionCountHourlyRow;
    delivered_conversions_daily: DeliveredConversionDailyRow;
    delivered_conversions_daily_zones: DeliveredConversionDailyZoneRow;
    tiktok_requests: TikTokRequestRow;
    conversion_pipelines: ConversionPipelineRow;
    conversion_pipeline_partitions: ConversionPipelinePartitionRow;
    erasure_requests: ErasureRequestRow;
    past_event_runs: PastEventRunRow;
  }
}
