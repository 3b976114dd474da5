import { randomBytes } from 'node:crypto';
import type { CatalogAd } from './ad-catalog';

export interface IssuedClick {
  ttclid: string;
  ad: CatalogAd;
  clickedAt: Date;
}

/** Clicks the fake has "served": each `ttclid` belongs to one ad, so conversions sent with it count for that ad. */
export class ClickStore {
  private readonly clicks = new Map<string, IssuedClick>();

  issue(ad: CatalogAd, clickedAt: Date): IssuedClick {
    // `E.C.P.` + URL-safe base64 characters, like real click IDs (§9 "ttclid format").
    const click = { ttclid: `E.C.P.${randomBytes(48).toString('base64url')}`, ad, clickedAt };
    this.clicks.set(click.ttclid, click);
    return click;
  }

  find(ttclid: string): IssuedClick | undefined {
    return this.clicks.get(ttclid);
  }

  all(): IssuedClick[] {
    return [...this.clicks.values()];
  }

  clear(): void {
    this.clicks.clear();
  }
}

/** The ad's landing page as TikTok opens it: macros substituted (§9, Signalbox's convention), `ttclid` appended. */
export function landingUrlOf(template: string, click: IssuedClick): string {
  const substituted = template
    .replaceAll('__CAMPAIGN_ID__', click.ad.campaignId)
    .replaceAll('__AID__', click.ad.adgroupId)
    .replaceAll('__CID__', click.ad.adId);
  const url = new URL(substituted);
  url.searchParams.set('ttclid', click.ttclid);
  return url.toString();
}
