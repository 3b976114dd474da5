import type { EventSetKind } from '../../../contract/event-set-kinds';

/**
 * The three permissions the specification names (§4.5 step 1, §5.4) as TikTok Marketing API permission IDs, the
 * integers of the `scope` array returned by `oauth2/access_token` (§8). Source: api-evangelist/tiktok-ads
 * `scopes/tiktok-ads-scopes.yml`, harvested from TikTok's "App permissions" docs: one secondary source, not checked
 * against TikTok itself, hence this single constant. A first-level ID implies every permission beneath it.
 */
export const REQUIRED_TIKTOK_PERMISSIONS = [
  {
    key: 'read_ad_performance',
    description: 'read ad performance data (Reporting)',
    /** 4 Reporting, 44 Consolidated Report (report/integrated/get). */
    grantedBy: ['4', '44'],
  },
  {
    key: 'send_conversion_events',
    description: 'send conversion events (Measurement → Report Conversion Event)',
    /** 5 Measurement, 7224195155857866754 Report Conversion Event (event/track); above 2^53, hence strings. */
    grantedBy: ['5', '7224195155857866754'],
  },
  {
    key: 'access_pixel',
    description: 'access the pixel (Pixel Management)',
    /** 8 Pixel Management, 80 its second level, 800 Read Pixels (pixel/list). */
    grantedBy: ['8', '80', '800'],
  },
] as const;

export type TikTokPermissionKey = (typeof REQUIRED_TIKTOK_PERMISSIONS)[number]['key'];

/**
 * What listing each kind of event set needs, from the same source (`offline/get` and `crm/list` are listed under these).
 * Optional: a shop without store or CRM sales never needs them, so OAuth does not refuse a grant without them.
 */
export const EVENT_SET_PERMISSIONS = {
  offline: {
    key: 'read_offline_event_sets',
    description: 'read Offline Event Sets (Offline Events Management → Read Offline Events)',
    /** 7043626160646946818 Offline Events Management, 7224195155857833986 Read Offline Events (offline/get). */
    grantedBy: ['7043626160646946818', '7224195155857833986'],
  },
  crm: {
    key: 'read_crm_event_sets',
    description: 'read CRM Event Sets (CRM Event Management → Read CRM Event Sets)',
    /** 7294180478502830081 CRM Event Management, 7294180478502846465 Read CRM Event Sets (crm/list). */
    grantedBy: ['7294180478502830081', '7294180478502846465'],
  },
} as const satisfies Record<EventSetKind, { key: string; description: string; grantedBy: readonly string[] }>;

/** Permission IDs as exact strings: our client keeps IDs above 2^53 as strings, smaller ones arrive as numbers. */
export function normalizeScopes(scope: readonly (number | string)[] | undefined): string[] {
  return [...new Set((scope ?? []).map((id) => (typeof id === 'number' ? BigInt(id).toString() : String(id).trim())))];
}

/** The required permissions a grant lacks (empty when all three are there). */
export function missingPermissions(grantedScopes: readonly string[]): TikTokPermissionKey[] {
  return REQUIRED_TIKTOK_PERMISSIONS.filter((permission) => !permission.grantedBy.some((id) => grantedScopes.includes(id))).map((p) => p.key);
}
