export interface Figures {
  spend: string | null;
  impressions: number | null;
  clicks: number | null;
  cpc: string | null;
  ctr: string | null;
  cpm: string | null;
  conversions: number | null;
  costPerConversion: string | null;
  conversionValue: string | null;
  /** TikTok's: its conversion value / spend. */
  roas: string | null;
  deliveredConversions: number;
  /** In the advertiser's currency when every currency could be converted, else null. */
  deliveredValue: string | null;
  /** Per currency, never summed across currencies. */
  deliveredValues: Record<string, string>;
  /** Signalbox's: the delivered value / spend. */
  deliveredRoas: string | null;
}

export interface Row extends Figures {
  level: 'campaign' | 'adgroup' | 'ad';
  date: string | null;
  entityId: string;
  name: string | null;
  status: string | null;
  statusLabel: string | null;
  campaignId: string | null;
  adgroupId: string | null;
}

export interface Named {
  id: string;
  name: string | null;
}

export interface Report {
  currency: string | null;
  timeZone: string;
  notes: string[];
  rows: Row[];
  totals: Figures & { rows: number };
  scope: { campaign: Named | null; adgroup: Named | null };
  statsPulledAt: string | null;
  statsPullError: string | null;
}
