/** The reference's groups of routes, in the order it lists them. */
export const TAGS = {
  Ingest: 'Events in: the Segment-compatible tracking API, the tracking script and webhook sources.',
  'Settings API': 'Workspaces and their settings, for the signalbox CLI and scripts: the admin token.',
  Shopify: 'Connect Shopify: the Signalbox app installed in a shop, its webhooks and storefront script.',
  TikTok: 'The TikTok connection: OAuth, advertiser and pixel, statistics, test conversions.',
  Console: 'What the console uses: the session cookie, and the CSRF token on writes.',
  'Console pages': 'The console itself (HTML and assets).',
  Operations: 'Health, readiness and metrics, for load balancers and monitoring.',
  Reference: 'This reference.',
} as const;

export type TagName = keyof typeof TAGS;
