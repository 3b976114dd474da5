/** Row shapes as PostgreSQL returns them (timestamptz → Date, numeric → number, bigint → string). */

export type ConversionStatus = 'pending' | 'delivered' | 'skipped' | 'failed';
export type IdentityKind = 'anonymous_id' | 'user_id' | 'email_sha256' | 'phone_sha256';
export type ValueSource = 'order_total' | 'fixed' | 'none';

export interface WorkspaceRow {
  id: string;
  name: string;
  attribution_window_days: number;
  test_mode: boolean;
  test_event_code: string | null;
  default_phone_region: string;
  /** Exact origins (`https://shop.example`) that browser keys are accepted from. */
  allowed_origins: string[];
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
  message: Record<string, unknown>;
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
  value_source: ValueSource;
  fixed_value: number | null;
  currency: string | null;
  created_at: Date;
  updated_at: Date;
}

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
  app_id: string | null;
  source: string;
  status: TikTokConnectionStatus;
  granted_scopes: string[] | null;
  accessible_advertisers: AccessibleAdvertiser[] | null;
  authorized_at: Date | null;
  stats_pulled_at: Date | null;
  stats_pull_error: string | null;
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
  message_id: string;
  source_event: string;
  tiktok_event: string;
  event_id: string;
  event_time: Date;
  event_source: 'web' | 'app';
  value: number | null;
  currency: string | null;
  status: ConversionStatus;
  reason: string | null;
  workflow_id: string;
  workflow_started_at: Date | null;
  attempts: number;
  ttclid: string | null;
  click_captured_at: Date | null;
  click_anonymous_id: string | null;
  click_campaign_id: string | null;
  click_adgroup_id: string | null;
  click_ad_id: string | null;
  ttp: string | null;
  test_mode: boolean;
  tiktok_code: number | null;
  tiktok_message: string | null;
  tiktok_request_id: string | null;
  request_payload: Record<string, unknown> | null;
  response_body: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
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
  }
}
