/**
 * TikTok's `secondary_status` (and `operation_status`) codes as Ads Manager words them. The prefix names the level
 * (`CAMPAIGN_STATUS_`, `ADGROUP_STATUS_`, `AD_STATUS_`); what follows is the state. Codes not listed read as their
 * words (`AD_STATUS_SOME_NEW_STATE` → "Some new state"), so a new TikTok code still reads sensibly.
 */
const LABELS: Readonly<Record<string, string>> = {
  ENABLE: 'Active',
  DELIVERY_OK: 'Active',
  DISABLE: 'Paused',
  DELETE: 'Deleted',
  NOT_DELIVER: 'Not delivering',
  NOT_START: 'Scheduled',
  TIME_DONE: 'Completed',
  DONE: 'Completed',
  BUDGET_EXCEED: 'Budget reached',
  CAMPAIGN_EXCEED: 'Campaign budget reached',
  BALANCE_EXCEED: 'Account balance too low',
  AUDIT: 'In review',
  REAUDIT: 'In review',
  REVIEWING: 'In review',
  AUDIT_DENY: 'Rejected',
  ADVERTISER_AUDIT_DENY: 'Account rejected',
  ADVERTISER_AUDIT: 'Account in review',
  CAMPAIGN_DISABLE: 'Campaign paused',
  ADGROUP_DISABLE: 'Ad group paused',
  CAMPAIGN_DELETE: 'Campaign deleted',
  ADGROUP_DELETE: 'Ad group deleted',
  FROZEN: 'Frozen',
  LIMITED: 'Limited',
  LEARNING: 'Learning',
};

const PREFIX = /^(CAMPAIGN|ADGROUP|AD)_STATUS_/;

/** "Active", "Paused", "In review", …; null for no status. */
export function readableAdStatus(code: string | null): string | null {
  if (code === null || code.trim() === '') return null;
  const state = code.trim().toUpperCase().replace(PREFIX, '');
  const label = LABELS[state];
  if (label !== undefined) return label;
  const words = state.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
