import type { ConversionReason } from './reasons';

export interface ReasonHelp {
  /** The reason in a few words, where a list or a filter names it. */
  label: string;
  /** What happened, for a person. */
  explanation: string;
  /** What to do about it. */
  fix: string;
}

/**
 * Spec §7.5's troubleshooting conditions for missing conversions, per reason a conversion can carry, in plain words
 * with the fix. One table, shown by the console beside each conversion and each reason on the overview.
 */
export const REASON_HELP: Readonly<Record<ConversionReason, ReasonHelp>> = {
  no_ttclid: {
    label: 'No TikTok click found',
    explanation: 'No TikTok click ID (`ttclid`) is known for this person before the conversion, so TikTok cannot tell which ad it came from. Usually they did not come from an ad, or the landing page lost the click ID.',
    fix: "Install the tracking tag on every landing page (Sources), keep the `ttclid` parameter in your ads' landing addresses, and send the purchase with the same visitor ID (or user ID, email or phone) as the landing visit had. To have TikTok match such conversions on email, phone and the other keys instead, turn on \"Send conversions without a click\" in Settings.",
  },
  click_outside_attribution_window: {
    label: 'Click older than the attribution window',
    explanation: "The person's last TikTok click is older than this workspace's attribution window, so the conversion is not credited to the ad.",
    fix: 'If longer journeys are normal for your shop, widen the attribution window in Settings (up to 90 days; TikTok itself counts clicks up to 28 days), or turn on "Send conversions without a click" to have TikTok match them on the other keys.',
  },
  conversion_rule_removed: {
    label: 'Conversion rule deleted',
    explanation: 'The conversion rule for this event was deleted before the conversion was processed.',
    fix: 'Add the rule again under Conversion rules if these events should reach TikTok.',
  },
  tiktok_not_connected: {
    label: 'TikTok not connected',
    explanation: 'The integration is not connected: this workspace had no TikTok connection when the conversion was processed.',
    fix: 'Connect TikTok under Sources, then send the conversion again.',
  },
  tiktok_connection_incomplete: {
    label: 'No pixel chosen',
    explanation: 'TikTok is connected but no pixel is selected, so there is nowhere to send web conversions (a wrong or missing pixel ID).',
    fix: 'Choose the advertiser and the pixel your ads optimise for under Sources; check it is the pixel shown in TikTok Events Manager.',
  },
  tiktok_reauthorization_required: {
    label: 'TikTok must be connected again',
    explanation: 'TikTok refused the stored access token: the connection was revoked or the advertiser was de-authorized (for instance after switching to the wrong advertiser).',
    fix: 'Reconnect TikTok under Sources with an account that has access to the advertiser, then send the failed conversions again.',
  },
  app_events_not_configured: {
    label: 'No TikTok App ID for app events',
    explanation: 'The event came from a mobile app, but no TikTok App ID is set, so it cannot be sent as an app event.',
    fix: "Enter the app's TikTok App ID under Sources.",
  },
  offline_events_not_configured: {
    label: 'No Offline Event Set chosen',
    explanation: 'The sale happened offline, in a store or on the phone (or its rule sends to Offline), but no Offline Event Set is chosen for the TikTok connection, so there is nowhere to send it.',
    fix: 'Choose an Offline Event Set under Sources (create one in TikTok Events Manager first), then send the conversion again. To send such sales to the pixel instead, set the rule\'s "Send to" to Website.',
  },
  crm_events_not_configured: {
    label: 'No CRM Event Set chosen',
    explanation: 'The conversion rule sends these events to CRM, but no CRM Event Set is chosen for the TikTok connection, so there is nowhere to send them.',
    fix: 'Choose a CRM Event Set under Sources (create one in TikTok Events Manager first), then send the conversion again.',
  },
  lead_id_missing: {
    label: 'No lead ID for a CRM event',
    explanation: 'TikTok takes a CRM event only with the ID of the lead it is about, and this event names none.',
    fix: 'Have whoever sends your CRM\'s stages add the lead\'s ID from the CRM to each of them (the property `lead_id`, and the CRM\'s name, e.g. HubSpot, as `lead_event_source`), then send the conversion again.',
  },
  no_person_keys: {
    label: 'No email, phone or customer ID',
    explanation: 'Sales off the website and CRM events reach TikTok without a click: TikTok matches them on the customer\'s email, phone or ID, and this one carries none of them.',
    fix: 'Record the customer\'s email or phone with the sale (or send your customer ID as the user ID), then send the conversion again.',
  },
  test_mode: {
    label: 'Sent in test mode',
    explanation: "Sent in test mode with the test event code: it shows only in TikTok Events Manager's Test Events view and counts for no campaign.",
    fix: 'Turn test mode off under Test mode when you are done testing; later conversions go to production.',
  },
  tiktok_rejected: {
    label: 'Refused by TikTok',
    explanation: 'TikTok refused the event; its code and message below say why (for instance a pixel of another advertiser, or a malformed field).',
    fix: 'Read TikTok\'s message: fix the pixel or advertiser under Sources if it names them, or the event\'s fields in your code, then send it again.',
  },
  expired: {
    label: 'Too old for TikTok (over 28 days)',
    explanation: "The conversion is older than TikTok's event-time horizon (28 days after the event), so TikTok would no longer count it: it is not sent.",
    fix: 'Send conversions as they happen; for an outage, send the failed ones again before they are 28 days old.',
  },
  event_invalid: {
    label: "Breaks one of TikTok's rules",
    explanation: "The event breaks one of TikTok's documented rules (the message below names it), so it was not sent; the other events sent with it were.",
    fix: "Fix the field in the event your code sends (or the rule's value and currency), then send it again.",
  },
  internal_error: {
    label: 'Signalbox failed on it',
    explanation: 'Signalbox itself failed on this conversion every time it tried (a fault in Signalbox or data it cannot handle), so it set it aside rather than hold up the conversions after it. Its timeline names the step and the error.',
    fix: 'Report the step and error from the timeline to whoever runs Signalbox; once it is fixed, send the conversion again (it keeps its event_id, so TikTok counts it once).',
  },
  delivery_retries_exhausted: {
    label: 'TikTok unavailable at every attempt',
    explanation: 'TikTok kept answering with temporary errors until every delivery attempt was used.',
    fix: 'Check TikTok\'s status, then send the conversion again; it keeps its event_id, so TikTok counts it once.',
  },
};

/** Not a reason a conversion carries, but spec §7.5's sixth condition: the same event_id on two different conversions. */
export const DUPLICATE_EVENT_ID_HELP: ReasonHelp = {
  label: 'Repeated order ID or event ID',
  explanation: 'Another event arrived with the same order ID or event ID, so no second conversion was made: TikTok would have counted only one anyway. If they were different purchases, they shared an ID by mistake.',
  fix: 'Give every order its own order ID (`order_id`), and send the browser pixel the same event ID (`event_id`) as the server for the same purchase only.',
};

/** Not a reason either: a conversion delivered with no click inside the window (the workspace's `matchWithoutClick`). */
export const SENT_WITHOUT_CLICK_HELP: ReasonHelp = {
  label: 'Sent without a click',
  explanation:
    "No TikTok click was found for this person inside the attribution window, and this workspace sends such conversions for TikTok to match on the person's other keys (hashed email and phone, external ID, IP address, user agent, the `_ttp` cookie). TikTok may still credit an ad it showed them; Signalbox's reports count it apart from click-attributed conversions and under no campaign.",
  fix: 'Nothing is wrong. To send only conversions with a click inside the window, turn off "Send conversions without a click" in Settings.',
};

export function reasonHelp(reason: string | null): ReasonHelp | null {
  return reason !== null && reason in REASON_HELP ? REASON_HELP[reason as ConversionReason] : null;
}
