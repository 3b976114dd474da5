import type { FakeTikTokAdvertiserSeed } from './seed';

export interface CatalogCampaign {
  advertiserId: string;
  campaignId: string;
  campaignName: string;
  operationStatus: string;
}

export interface CatalogAdGroup extends CatalogCampaign {
  adgroupId: string;
  adgroupName: string;
}

export interface CatalogAd extends CatalogAdGroup {
  adId: string;
  adName: string;
}

export interface CatalogAdvertiser {
  seed: FakeTikTokAdvertiserSeed;
  campaigns: CatalogCampaign[];
  adGroups: CatalogAdGroup[];
  ads: CatalogAd[];
}

/** The seeded advertisers flattened per level, in seed order, with lookups by ID. */
export class AdCatalog {
  private readonly advertisers = new Map<string, CatalogAdvertiser>();
  private readonly adsById = new Map<string, CatalogAd>();
  /** Ads under each campaign and ad group ID. */
  private readonly adsUnder = new Map<string, CatalogAd[]>();

  constructor(seeds: readonly FakeTikTokAdvertiserSeed[]) {
    for (const seed of seeds) {
      const entry: CatalogAdvertiser = { seed, campaigns: [], adGroups: [], ads: [] };
      for (const campaign of seed.campaigns) {
        const c: CatalogCampaign = {
          advertiserId: seed.advertiserId,
          campaignId: campaign.campaignId,
          campaignName: campaign.campaignName,
          operationStatus: campaign.operationStatus ?? 'ENABLE',
        };
        entry.campaigns.push(c);
        for (const adGroup of campaign.adGroups) {
          const g: CatalogAdGroup = { ...c, adgroupId: adGroup.adgroupId, adgroupName: adGroup.adgroupName };
          entry.adGroups.push(g);
          for (const ad of adGroup.ads) {
            const a: CatalogAd = { ...g, adId: ad.adId, adName: ad.adName };
            entry.ads.push(a);
            this.adsById.set(a.adId, a);
            for (const parent of [a.campaignId, a.adgroupId]) {
              const siblings = this.adsUnder.get(parent) ?? [];
              siblings.push(a);
              this.adsUnder.set(parent, siblings);
            }
          }
        }
      }
      this.advertisers.set(seed.advertiserId, entry);
    }
  }

  advertiser(advertiserId: string): CatalogAdvertiser | undefined {
    return this.advertisers.get(advertiserId);
  }

  ad(adId: string): CatalogAd | undefined {
    return this.adsById.get(adId);
  }

  /** The ads of a campaign or ad group (empty for an unknown ID). */
  adsOf(campaignOrAdGroupId: string): readonly CatalogAd[] {
    return this.adsUnder.get(campaignOrAdGroupId) ?? [];
  }

  pixelCodesOf(advertiserIds: readonly string[]): string[] {
    return advertiserIds.flatMap((id) => this.advertisers.get(id)?.seed.pixels.map((p) => p.pixelCode) ?? []);
  }

  allAdvertiserIds(): string[] {
    return [...this.advertisers.keys()];
  }
}
