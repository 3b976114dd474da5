import { getCountries } from 'libphonenumber-js/max';
import { isSha256Hex, sha256Hex } from './hashing';
import type { TrackedMessage } from './message';

/**
 * TikTok's advanced-matching keys beyond email and phone (reference §1.3). First and last name and ZIP code go as the
 * SHA-256 of the normalised value; city, state and country go normalised but NOT hashed, as both maintained
 * integrations send them (the reference lists them "not hashed by RS/SEG"):
 * - Segment's TikTok Conversions destination (segmentio/action-destinations @ 970a17e,
 *   `packages/destination-actions/src/destinations/tiktok-conversions/reportWebEvent/formatter.ts` and `utils.ts`):
 *   `formatAddress` (city, state, country) lower-cases and strips non-alphanumerics without hashing; `formatString`
 *   (first_name, last_name, zip_code) strips spaces, lower-cases and hashes.
 * - RudderStack (rudderlabs/rudder-transformer @ c98d160, `src/v0/destinations/tiktok_ads/data/TikTokTrackV2.json`):
 *   `user.city`, `user.state`, `user.country` copied as sent; first_name, last_name and zip_code hashed.
 * No TikTok text on these keys was found, so how TikTok normalises them is UNVERIFIED; Signalbox keeps the letters
 * of every alphabet ("München" → "münchen") where Segment keeps only A–Z, and sends countries as ISO codes.
 */
export type PersonKey = 'first_name' | 'last_name' | 'city' | 'state' | 'country' | 'zip_code';
export const PERSON_KEYS: readonly PersonKey[] = ['first_name', 'last_name', 'city', 'state', 'country', 'zip_code'];
/** The keys TikTok takes as SHA-256; the others go in plain text. */
const HASHED: ReadonlySet<PersonKey> = new Set(['first_name', 'last_name', 'zip_code']);

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

/**
 * What TikTok receives for the key: the SHA-256 of the normalised name or ZIP code (a value the sender already hashed
 * passes through), the normalised city, state or country in plain text (a hash there could match nothing, so it is
 * dropped); junk is dropped.
 */
export function personKeyValue(key: PersonKey, raw: unknown): string | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) raw = String(raw);
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const hashedBySender = isSha256Hex(raw.trim());
  if (!HASHED.has(key)) return hashedBySender ? undefined : nonEmpty(NORMALISE[key](raw));
  if (hashedBySender) return raw.trim().toLowerCase();
  const normalised = nonEmpty(NORMALISE[key](raw));
  return normalised === undefined ? undefined : sha256Hex(normalised);
}

const nonEmpty = (text: string | undefined) => (text === '' ? undefined : text);

/** The spellings of each key: Segment's (`firstName`, `address.postalCode`) and the snake_case and lower-case ones other libraries send. */
const NAME_SPELLINGS: Record<'first_name' | 'last_name', readonly string[]> = {
  first_name: ['firstName', 'first_name', 'firstname'],
  last_name: ['lastName', 'last_name', 'lastname'],
};
const ADDRESS_SPELLINGS: Record<'city' | 'state' | 'country' | 'zip_code', readonly string[]> = {
  city: ['city'],
  state: ['state'],
  country: ['country'],
  zip_code: ['postalCode', 'postal_code', 'postalcode', 'zip', 'zipCode', 'zip_code', 'zipcode'],
};

function first(source: Json | undefined, spellings: readonly string[]): unknown {
  for (const key of spellings) {
    const value = source?.[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/**
 * The person's name and address as the message gives them, in `traits`, then `context.traits`: Segment's
 * `firstName`, `lastName` and `address.{city,state,country,postalCode}`, or the address keys written flat beside
 * the name (`city`, `state`, `zip`, `country`), as several libraries send them. Names and ZIP code hashed.
 */
export function readPersonKeys(message: TrackedMessage): PersonKeys {
  const sources = [message.traits, record(message.context?.traits)];
  const keys: PersonKeys = {};
  const add = (key: PersonKey, raw: unknown) => {
    const value = personKeyValue(key, raw);
    if (value !== undefined) keys[key] = value;
  };
  for (const key of ['first_name', 'last_name'] as const) add(key, sources.map((s) => first(s, NAME_SPELLINGS[key])).find((v) => v !== undefined));
  for (const key of ['city', 'state', 'country', 'zip_code'] as const) {
    const spellings = ADDRESS_SPELLINGS[key];
    add(key, sources.map((s) => first(record(s?.address), spellings) ?? first(s, spellings)).find((v) => v !== undefined));
  }
  return keys;
}
