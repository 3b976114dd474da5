import { hash } from 'node:crypto';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { meaningfulIdentifier } from './identifiers';

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One-shot `hash`: a third of `createHash`'s cost for short values (ingest hashes each event's email and each request's key). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}

/** TikTok's email rule (reference §3): trim, lower-case, SHA-256. Already-hashed values pass through (lower-cased). */
export function hashEmail(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  if (isSha256Hex(trimmed)) return trimmed.toLowerCase();
  const email = trimmed.toLowerCase();
  return EMAIL.test(email) ? sha256Hex(email) : undefined;
}

/** E.164 with a leading `+`, using `defaultRegion` for national-format numbers; undefined when not a valid number. */
export function normalizePhone(raw: unknown, defaultRegion: string): string | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim();
  if (text === '') return undefined;
  const withPlus = text.replace(/^\(\+(\d+)\)/, '+$1').replace(/^00(?=[1-9])/, '+');
  const parsed = parsePhoneNumberFromString(withPlus, defaultRegion.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** TikTok's phone rule (reference §3): E.164 with `+`, then SHA-256. Already-hashed values pass through. */
export function hashPhone(raw: unknown, defaultRegion: string): string | undefined {
  if (typeof raw === 'string' && isSha256Hex(raw.trim())) return raw.trim().toLowerCase();
  const e164 = normalizePhone(raw, defaultRegion);
  return e164 === undefined ? undefined : sha256Hex(e164);
}

/**
 * TikTok's external_id rule (reference §3): SHA-256 of the trimmed value, case kept. A value the sender already
 * hashed (64 hex characters) passes through lower-cased: hashing it again would match nobody.
 */
export function hashExternalId(raw: unknown): string | undefined {
  const id = meaningfulIdentifier(raw);
  if (id === undefined) return undefined;
  return isSha256Hex(id) ? id.toLowerCase() : sha256Hex(id);
}

/** Each distinct hash of several raw values, in their order; values that hash to nothing are left out. */
export function hashEach(raws: readonly unknown[], hash: (raw: unknown) => string | undefined): string[] {
  return [...new Set(raws.map(hash).filter((h): h is string => h !== undefined))];
}
