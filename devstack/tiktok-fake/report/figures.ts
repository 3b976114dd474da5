import type { CatalogAd } from '../ad-catalog';
import type { FakeTikTokState } from '../state';
import { dayIn } from './dates';

/** What happened to one ad (or a sum of ads) on one day. Money in cents keeps sums exact. */
export interface DayFigures {
  impressions: number;
  clicks: number;
  spendCents: number;
  /** Conversions TikTok attributes: accepted live events whose `ttclid` is a click the fake issued for the ad. */
  conversions: number;
  /** Of which web CompletePayment, and their total value. */
  purchases: number;
  purchaseValueCents: number;
  /** Of which app purchases (CompletePayment or Purchase with `event_source: app`), and their total value. */
  appPurchases: number;
  appPurchaseValueCents: number;
}

const ZERO: DayFigures = { impressions: 0, clicks: 0, spendCents: 0, conversions: 0, purchases: 0, purchaseValueCents: 0, appPurchases: 0, appPurchaseValueCents: 0 };
const PURCHASES = new Set(['CompletePayment', 'Purchase']);

/** FNV-1a: a fast, stable hash, so that the same ad and day always report the same delivery figures. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Synthetic delivery: about one day in ten without any (a paused ad), else impressions, clicks and spend. */
function delivery(adId: string, day: string): Pick<DayFigures, 'impressions' | 'clicks' | 'spendCents'> {
  const h = hash(`${adId}|${day}`);
  if (h % 10 === 0) return { impressions: 0, clicks: 0, spendCents: 0 };
  const impressions = 200 + (h % 4800);
  const clicks = Math.floor((impressions * (5 + ((h >>> 8) % 25))) / 1000);
  return { impressions, clicks, spendCents: 50 + ((h >>> 16) % 5000) };
}

/**
 * Traffic the fake can tell apart per ad and day (the advertiser's day): clicks it issued (each one an impression and
 * a click) and the conversions sent back with their `ttclid` (test events and deduplicated repeats are not counted, as
 * in TikTok).
 */
export class AttributedActivity {
  private readonly byAdDay = new Map<string, DayFigures>();

  constructor(state: FakeTikTokState) {
    const dayOf = (ad: CatalogAd, at: Date) => dayIn(at, state.catalog.advertiser(ad.advertiserId)?.seed.timeZone ?? 'Etc/GMT');
    for (const click of state.clicks.all()) {
      const figures = this.entry(click.ad.adId, dayOf(click.ad, click.clickedAt));
      figures.impressions += 1;
      figures.clicks += 1;
    }
    for (const event of state.log.snapshot().events) {
      if (event.test || event.deduplicated) continue;
      const ttclid = (event.payload.user as { ttclid?: unknown } | undefined)?.ttclid;
      const click = typeof ttclid === 'string' ? state.clicks.find(ttclid) : undefined;
      if (click === undefined) continue;
      const figures = this.entry(click.ad.adId, dayOf(click.ad, new Date(event.eventTime * 1000)));
      figures.conversions += 1;
      if (!PURCHASES.has(event.event)) continue;
      const value = (event.payload.properties as { value?: unknown } | undefined)?.value;
      const cents = typeof value === 'number' ? Math.round(value * 100) : 0;
      if (event.eventSource === 'app') {
        figures.appPurchases += 1;
        figures.appPurchaseValueCents += cents;
      } else if (event.event === 'CompletePayment') {
        figures.purchases += 1;
        figures.purchaseValueCents += cents;
      }
    }
  }

  private entry(adId: string, day: string): DayFigures {
    const key = `${adId}|${day}`;
    let figures = this.byAdDay.get(key);
    if (figures === undefined) {
      figures = { ...ZERO };
      this.byAdDay.set(key, figures);
    }
    return figures;
  }

  get(adId: string, day: string): DayFigures | undefined {
    return this.byAdDay.get(`${adId}|${day}`);
  }
}

export function figuresOf(ads: readonly CatalogAd[], days: readonly string[], activity: AttributedActivity): DayFigures {
  const total = { ...ZERO };
  for (const ad of ads) {
    for (const day of days) {
      const base = delivery(ad.adId, day);
      total.impressions += base.impressions;
      total.clicks += base.clicks;
      total.spendCents += base.spendCents;
      const extra = activity.get(ad.adId, day);
      if (extra) {
        total.impressions += extra.impressions;
        total.clicks += extra.clicks;
        total.conversions += extra.conversions;
        total.purchases += extra.purchases;
        total.purchaseValueCents += extra.purchaseValueCents;
        total.appPurchases += extra.appPurchases;
        total.appPurchaseValueCents += extra.appPurchaseValueCents;
      }
    }
  }
  return total;
}

function money(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function ratioMoney(cents: number, count: number): string {
  return count === 0 ? '0.00' : money(Math.round(cents / count));
}

/** Every numeric metric the fake serves, as TikTok sends them: strings (§7.2). */
export const NUMERIC_METRICS: Readonly<Record<string, (f: DayFigures) => string>> = {
  spend: (f) => money(f.spendCents),
  impressions: (f) => String(f.impressions),
  clicks: (f) => String(f.clicks),
  /** Percent with two decimals: "1.09" = 1.09 % (§7.3). */
  ctr: (f) => (f.impressions === 0 ? '0.00' : (Math.round((f.clicks * 10_000) / f.impressions) / 100).toFixed(2)),
  cpc: (f) => ratioMoney(f.spendCents, f.clicks),
  cpm: (f) => ratioMoney(f.spendCents * 1000, f.impressions),
  conversion: (f) => String(f.conversions),
  cost_per_conversion: (f) => ratioMoney(f.spendCents, f.conversions),
  complete_payment: (f) => String(f.purchases),
  /** Web purchase VALUE despite its name (§7.3). */
  total_complete_payment_rate: (f) => money(f.purchaseValueCents),
  value_per_complete_payment: (f) => ratioMoney(f.purchaseValueCents, f.purchases),
  /** App in-app purchases and their value (§7.3 "App purchase"). */
  purchase: (f) => String(f.appPurchases),
  total_purchase_value: (f) => money(f.appPurchaseValueCents),
};
