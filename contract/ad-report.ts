import { z } from 'zod';

/* The ad report as the settings API and the console answer it; the CLI and the console read it with these types. Imports nothing but zod. */

const decimal = z.string().meta({ description: 'An exact decimal' });

/**
 * Figures are exact decimal strings computed in PostgreSQL, never floats; ratios are rounded to 4 decimals and are
 * null when their denominator is zero or unknown. Money is in the advertiser's currency, except `deliveredValues`.
 */
export const adFigures = z.strictObject({
  spend: decimal.nullable(),
  impressions: z.number().int().nullable(),
  clicks: z.number().int().nullable(),
  cpc: decimal.nullable().meta({ description: 'spend / clicks' }),
  ctr: decimal.nullable().meta({ description: 'clicks / impressions × 100 (percent, like TikTok\'s ctr)' }),
  cpm: decimal.nullable().meta({ description: 'spend / impressions × 1,000' }),
  conversions: z.number().int().nullable(),
  costPerConversion: decimal.nullable(),
  conversionRate: decimal.nullable().meta({ description: 'conversions / clicks × 100 (percent)' }),
  conversionValue: decimal.nullable().meta({ description: 'Web and app purchase value, as TikTok attributes them' }),
  roas: decimal.nullable().meta({ description: 'TikTok\'s: conversion value / spend' }),
  deliveredConversions: z.number().int().meta({ description: 'Conversions Signalbox delivered (not in test mode) whose click came from this entity' }),
  deliveredValues: z.record(z.string(), z.string()).meta({ description: 'Their value per currency, never summed across currencies' }),
  deliveredValue: decimal.nullable().meta({ description: 'Their value in the advertiser\'s currency, when every currency could be converted' }),
  deliveredRoas: decimal.nullable().meta({ description: 'Signalbox\'s: deliveredValue / spend' }),
});
export type AdFigures = z.infer<typeof adFigures>;

export const adLevel = z.enum(['campaign', 'adgroup', 'ad']);

export const adReportRow = z.strictObject({
  ...adFigures.shape,
  level: adLevel,
  date: z.string().nullable().meta({ description: 'YYYY-MM-DD; null for granularity total' }),
  entityId: z.string(),
  name: z.string().nullable(),
  status: z.string().nullable().meta({ description: 'TikTok\'s status code, e.g. CAMPAIGN_STATUS_DELIVERY_OK' }),
  statusLabel: z.string().nullable().meta({ description: 'The status as Ads Manager words it' }),
  campaignId: z.string().nullable(),
  adgroupId: z.string().nullable(),
});
export type AdReportRow = z.infer<typeof adReportRow>;

const named = z.strictObject({ id: z.string(), name: z.string().nullable() });
export type NamedEntity = z.infer<typeof named>;

export const adReport = z
  .strictObject({
    advertiserId: z.string(),
    level: adLevel,
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['day', 'total']),
    currency: z.string().nullable().meta({ description: 'The advertiser\'s currency; null until TikTok reported it' }),
    timeZone: z.string().meta({ description: 'The zone whose days rows are grouped by: the advertiser\'s (UTC until reported)' }),
    notes: z.array(z.string()),
    rows: z.array(adReportRow),
    totals: z.strictObject({ ...adFigures.shape, rows: z.number().int() }).meta({ description: 'Every row of the query summed, not only this page' }),
    scope: z.strictObject({ campaign: named.nullable(), adgroup: named.nullable() }),
    statsPulledAt: z.iso.datetime().nullable(),
    statsPullError: z.string().nullable(),
  })
  .meta({ id: 'AdReport' });
export type AdReport = z.infer<typeof adReport>;
