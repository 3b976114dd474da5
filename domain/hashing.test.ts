import { hashEmail, hashExternalId, hashPhone, normalizePhone } from './hashing';

// TikTok's published examples (reference/tiktok-api.md §3), verified with sha256sum.
const ALICE = '848a771458438fc2ec420560d769fb9b9b86851ee338ec56517baabd79d3bb4f';
const PHONE = '9f7ec22d72092cd3c0b58726ed9c2d91b92e51a3f29837508fb2948bb22dd2fd';
const USER_123 = '80fba0ae1c48e3978e43e4efc365e14e12ea0c830ba8ba5b9a2dafc7e3f2ab8b';

describe('hashEmail', () => {
  it('trims and lower-cases before hashing (TikTok vector)', () => {
    expect(hashEmail(' ALICE_abc@gmail.com ')).toBe(ALICE);
  });

  it('passes an existing SHA-256 through, lower-cased', () => {
    expect(hashEmail(ALICE.toUpperCase())).toBe(ALICE);
  });

  it.each([[''], ['   '], ['not-an-email'], [null], [undefined], [42]])('drops %p instead of hashing it', (raw) => {
    expect(hashEmail(raw)).toBeUndefined();
  });
});

describe('hashPhone', () => {
  it('normalises to E.164 with + before hashing (TikTok vector)', () => {
    expect(hashPhone('(+1)2133734253', 'US')).toBe(PHONE);
  });

  it('reads a national-format number with the default region', () => {
    expect(normalizePhone('(213) 373-4253', 'US')).toBe('+12133734253');
    expect(hashPhone('(213) 373-4253', 'US')).toBe(PHONE);
  });

  it('uses the region only for national numbers', () => {
    expect(normalizePhone('020 7946 0018', 'GB')).toBe('+442079460018');
    expect(normalizePhone('+1 213 373 4253', 'GB')).toBe('+12133734253');
    expect(normalizePhone('0044 20 7946 0018', 'US')).toBe('+442079460018');
  });

  it.each([['12'], ['abc'], [''], [null]])('drops the invalid number %p', (raw) => {
    expect(hashPhone(raw, 'US')).toBeUndefined();
  });
});

describe('hashExternalId', () => {
  it('hashes the trimmed value, case kept (TikTok vector)', () => {
    expect(hashExternalId(' user_123 ')).toBe(USER_123);
    expect(hashExternalId('User_123')).not.toBe(USER_123);
  });

  it('reads a numeric user ID as its digits', () => {
    expect(hashExternalId(123)).toBe(hashExternalId('123'));
  });

  it('passes an ID the sender already hashed through, lower-cased, never hashing it twice', () => {
    expect(hashExternalId(USER_123)).toBe(USER_123);
    expect(hashExternalId(USER_123.toUpperCase())).toBe(USER_123);
  });

  it.each([[''], ['null'], ['anonymous'], [undefined], [{}]])('drops the non-identifier %p', (raw) => {
    expect(hashExternalId(raw)).toBeUndefined();
  });
});

describe('already-hashed values', () => {
  it.each([
    ['email', (v: string) => hashEmail(v)],
    ['phone', (v: string) => hashPhone(v, 'US')],
    ['external_id', (v: string) => hashExternalId(v)],
  ])('pass through unchanged for %s', (_field, hash) => {
    expect(hash(` ${ALICE} `)).toBe(ALICE);
  });
});
