import { normalizePhone } from './hashing';

const PII_KEYS = new Set([
  'email', 'phone', 'phone_number', 'mobile', 'first_name', 'last_name', 'firstname', 'lastname', 'full_name', 'name',
  'address', 'street', 'zip', 'zip_code', 'postal_code', 'postcode', 'birthday', 'birth_date', 'dob', 'ssn', 'password',
]);
/** Words that make a key a contact field wherever they appear in it: `customer_email`, `billingPhone`, `shipping_address`. */
const CONTACT_WORDS = new Set([
  'email', 'mail', 'phone', 'mobile', 'tel', 'telephone', 'msisdn', 'whatsapp', 'address', 'street', 'zip', 'zipcode',
  'postcode', 'postal', 'firstname', 'lastname', 'surname', 'fullname', 'birthday', 'birthdate', 'dob', 'ssn', 'password',
]);
const EMAIL_IN_TEXT = /[^\s@"'<>]+@[^\s@"'<>]+\.[a-z]{2,}/i;
/** A run written like an international phone number: `+`, a digit, then digits and separators. */
const INTERNATIONAL_PHONE_IN_TEXT = /\+\d[\d\s().-]{6,}\d/g;

/** `billingPhone`, `customer-email` → its lower-case words. */
function keyWords(key: string): string[] {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/);
}

/** A key named like a contact field: the known names, or any key with a contact word in it. */
export function isPiiKey(key: string): boolean {
  return PII_KEYS.has(key.toLowerCase()) || keyWords(key).some((word) => CONTACT_WORDS.has(word));
}

/**
 * Text that contains an email address or a valid international phone number (`+` and country code). Other digit
 * runs (dates such as 2026-11-26, SKUs, order numbers) are not personal data by their shape alone.
 */
export function looksLikePii(text: string): boolean {
  if (EMAIL_IN_TEXT.test(text)) return true;
  return [...text.matchAll(INTERNATIONAL_PHONE_IN_TEXT)].some(([run]) => normalizePhone(run, 'US') !== undefined);
}

/** The URL without query parameters that carry personal data (e.g. `?email=`), or undefined if it is not a URL. */
export function scrubUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  for (const [key, value] of [...url.searchParams.entries()]) {
    if (key !== 'ttclid' && (isPiiKey(key) || EMAIL_IN_TEXT.test(value))) url.searchParams.delete(key);
  }
  url.username = '';
  url.password = '';
  return url.toString();
}
