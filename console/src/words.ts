/* Identifiers, links of the identity graph and match keys, as the pages name them. */

export const IDENTITY_KINDS: Record<string, string> = { anonymous_id: 'Visitor (anonymous ID)', user_id: 'User ID', email_sha256: 'Email (hashed)', phone_sha256: 'Phone (hashed)' };

export const IDENTITY_LINKS: Record<string, string> = { same_anonymous_id: 'same anonymous ID', same_user: 'same user ID', same_email: 'same hashed email', same_phone: 'same hashed phone' };

/** The keys TikTok matches a conversion to a person by. */
export const MATCH_KEYS: Record<string, string> = {
  ttclid: 'ttclid (click ID)',
  ttp: '_ttp cookie',
  email: 'Email (hashed)',
  phone: 'Phone (hashed)',
  external_id: 'User ID (hashed)',
  first_name: 'First name (hashed)',
  last_name: 'Last name (hashed)',
  city: 'City',
  state: 'State',
  country: 'Country',
  zip_code: 'ZIP or postal code (hashed)',
  ip: 'IP address',
  user_agent: 'User agent',
  page_url: 'Page address',
  locale: 'Language',
  idfa: 'iOS advertising ID (IDFA)',
  idfv: 'iOS vendor ID (IDFV)',
  gaid: 'Android advertising ID (GAID)',
};
