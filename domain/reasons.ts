/** Why a conversion was not delivered as a normal production event; stored in `conversions.reason`. */
export const CONVERSION_REASONS = {
  no_ttclid: 'No TikTok click (ttclid) is known for this user before the conversion, so TikTok cannot attribute it.',
  click_outside_attribution_window: "The user's most recent TikTok click is older than the workspace's attribution window.",
  conversion_rule_removed: 'The conversion rule for this event was removed before the conversion was processed.',
  tiktok_not_connected: 'The workspace has no TikTok connection.',
  tiktok_connection_incomplete: 'The TikTok connection has no pixel selected.',
  tiktok_reauthorization_required: 'The TikTok access token was rejected; reconnect TikTok.',
  app_events_not_configured: 'The event came from a mobile app, but the workspace has no TikTok app ID.',
  offline_events_not_configured: 'The event happened offline (or its rule sends to the Offline Event Set), but the TikTok connection has no Offline Event Set chosen.',
  crm_events_not_configured: 'The rule sends its events to the CRM Event Set, but the TikTok connection has no CRM Event Set chosen.',
  lead_id_missing: 'A CRM event needs the lead it is about (properties.lead_id), and this event names none.',
  no_person_keys: 'An offline or CRM event is matched on the person only, and this one has no email, phone or external ID to match on.',
  test_mode: "Sent in test mode with the workspace's test_event_code: visible only in TikTok's Test Events view.",
  tiktok_rejected: 'TikTok rejected the event; see the TikTok code and message.',
  delivery_retries_exhausted: 'TikTok kept failing transiently until every delivery attempt was used (conversions processed one per workflow, before groups).',
  expired: "Past TikTok's event-time horizon (28 days after the event): it could no longer count, so it is not sent (again).",
  event_invalid: "The event breaks one of TikTok's documented rules (see the message), so it was not sent; the rest of its group was.",
  internal_error: 'A group step kept failing on this conversion alone (a Signalbox bug or data it cannot handle; the step and error are in its timeline), so it was set aside and the rest of its group went on.',
} as const;

export type ConversionReason = keyof typeof CONVERSION_REASONS;
