import { getCountries } from 'libphonenumber-js/max';
import { isSha256Hex, sha256Hex } from './hashing';
import type { TrackedMessage } from './message';

/**
 * TikTok's advanced-matching keys beyond email and phone (reference §1.3): each normalised, then SHA-256. TikTok's
 * Events API documentation lists them as hashed; integrations disagree on city, state and country (RS and SEG send
 * them plain), so Signalbox follows TikTok's documentation and hashes all six.
 */
export type PersonKey = 'first_name' | 'last_name' | 'city' | 'state' | 'country' | 'zip_code';
export const PERSON_KEYS: readonly PersonKey[] = ['first_name', 'last_name', 'city', 'state', 'country', 'zip_code'];

export type PersonKeys = Partial<Record<PersonKey, string>>;

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** Lower-case letters and digits only: spaces, punctuation and symbols removed ("Mary-Ann O'Neil" → "maryannoneil"). */
function lettersAndDigits(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');
}

/** English country names (as `Intl` spells them) and a few common aliases → ISO 3166-1 alpha-2, lower-case. */
const COUNTRY_BY_NAME: ReadonlyMap<string, string> = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const byName = new Map<string, string>([['usa', 'us'], ['unitedstatesofamerica', 'us'], ['uk', 'gb'], ['greatbritain', 'gb'], ['england', 'gb']]);
  for (const code of getCountries()) {
    const name = names.of(code);
    if (name !== undefined) byName.set(lettersAndDigits(name), code.toLowerCase());
  }
  return byName;
})();
const COUNTRY_CODES: ReadonlySet<string> = new Set(getCountries().map((code) => code.toLowerCase()));

/** Two-letter ISO code, lower-case ("US", "United States" → "us"); anything else is no country. */
function normalizeCountry(text: string): string | undefined {
  const letters = lettersAndDigits(text);
  if (COUNTRY_CODES.has(letters)) return letters;
  return COUNTRY_BY_NAME.get(letters);
}

/** Lower-case, no spaces or dashes; a US ZIP+4 ("94103-1234") keeps its five-digit ZIP (Meta's and Google's rule; TikTok's text is silent). */
function normalizeZip(text: string): string {
  const zipPlus4 = /^(\d{5})-\d{4}$/.exec(text.trim());
  return zipPlus4 !== null ? (zipPlus4[1] as string) : text.toLowerCase().replace(/[\s-]/g, '');
}

const NORMALISE: Record<PersonKey, (text: string) => string | undefined> = {
  first_name: lettersAndDigits,
  last_name: lettersAndDigits,
  city: lettersAndDigits,
  state: lettersAndDigits,
  country: normalizeCountry,
  zip_code: normalizeZip,
};

/** The SHA-256 of the key's normalised value; a value the sender already hashed passes through; junk is dropped. */
export function hashPersonKey(key: PersonKey, raw: unknown): string | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) raw = String(raw);
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  if (isSha256Hex(raw.trim())) return raw.trim().toLowerCase();
  const normalised = NORMALISE[key](raw);
  return normalised === undefined || normalised === '' ? undefined : sha256Hex(normalised);
}

/** Segment's spellings of each key in `traits` (and `traits.address` for the address keys). */
const NAME_SPELLINGS: Record<'first_name' | 'last_name', readonly string[]> = {
  first_name: ['firstName', 'first_name', 'firstname'],
  last_name: ['lastName', 'last_name', 'lastname'],
};
const ADDRESS_SPELLINGS: Record<'city' | 'state' | 'country' | 'zip_code', readonly string[]> = {
  city: ['city'],
  state: ['state'],
  country: ['country'],
  zip_code: ['postalCode', 'postal_code', 'zip', 'zipCode', 'zip_code'],
};

function first(source: Json | undefined, spellings: readonly string[]): unknown {
  for (const key of spellings) {
    const value = source?.[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/**
 * The person's name and address as the message gives them (`traits`, then `context.traits`: Segment's `firstName`,
 * `lastName` and `address.{city,state,country,postalCode}`), normalised and hashed.
 */
export function readPersonKeys(message: TrackedMessage): PersonKeys {
  const sources = [message.traits, record(message.context?.traits)];
  const keys: PersonKeys = {};
  const add = (key: PersonKey, raw: unknown) => {
    const hashed = hashPersonKey(key, raw);
    if (hashed !== undefined) keys[key] = hashed;
  };
  for (const key of ['first_name', 'last_name'] as const) add(key, sources.map((s) => first(s, NAME_SPELLINGS[key])).find((v) => v !== undefined));
  for (const key of ['city', 'state', 'country', 'zip_code'] as const) {
    add(key, sources.map((s) => first(record(s?.address), ADDRESS_SPELLINGS[key])).find((v) => v !== undefined));
  }
  return keys;
}
