import type { TikTokAdvertiserInfo } from '../tiktok';

/** What Signalbox asks `advertiser/info` for: the account's currency and time zone. */
export const ADVERTISER_INFO_FIELDS = ['currency', 'timezone', 'display_timezone'] as const;

export interface AdvertiserLocale {
  /** ISO 4217, upper case; null when TikTok gave none Signalbox can read. */
  currency: string | null;
  /** An IANA zone this runtime knows; null when TikTok gave none. */
  timeZone: string | null;
}

function knownZone(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The named zone (`display_timezone`) when known, else `timezone` (a name or an `Etc/GMT±N` offset zone). */
export function advertiserLocale(info: TikTokAdvertiserInfo | undefined): AdvertiserLocale {
  const currency = typeof info?.currency === 'string' && /^[A-Za-z]{3}$/.test(info.currency.trim()) ? info.currency.trim().toUpperCase() : null;
  return { currency, timeZone: knownZone(info?.display_timezone) ?? knownZone(info?.timezone) ?? null };
}
