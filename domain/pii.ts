const PII_KEYS = new Set([
  'email', 'phone', 'phone_number', 'mobile', 'first_name', 'last_name', 'firstname', 'lastname', 'full_name', 'name',
  'address', 'street', 'zip', 'zip_code', 'postal_code', 'postcode', 'birthday', 'birth_date', 'dob', 'ssn', 'password',
]);
const EMAIL_IN_TEXT = /[^\s@"'<>]+@[^\s@"'<>]+\.[a-z]{2,}/i;
const PHONE_IN_TEXT = /\+?\d[\d\s().-]{6,}\d/;

export function isPiiKey(key: string): boolean {
  return PII_KEYS.has(key.toLowerCase());
}

/** Text that contains an email address or something shaped like a phone number. */
export function looksLikePii(text: string): boolean {
  return EMAIL_IN_TEXT.test(text) || PHONE_IN_TEXT.test(text);
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
