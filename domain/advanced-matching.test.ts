import { personKeyValue, readPersonKeys, type PersonKey } from './advanced-matching';
import type { TrackedMessage } from './message';

// Golden hashes computed with `printf '%s' <normalised> | sha256sum`.
const MARYANNONEIL = '5e1ba0eb97d2d3adb8e3ed3b170f21f7505ed4faaffa3f4381e466117d1478eb';
const ZIP_94103 = '91dc2519ea98c5002cf2091e6a12b772eafdce9dca618e626d7d3b8275361789';
const SW1A1AA = '830e1d4b9838bab1f5c2acdb23e0b502ff13a9832c4632e8d67a1d43d3b7f614';
/** SHA-256 of "sanjose": what a city sent hashed by mistake looks like. */
const SANJOSE_HASHED = 'ce53c678303fa3e5678b3f614d1daeffc31e32137844b42b46546183bc8bb3d8';

describe('personKeyValue', () => {
  it.each<[PersonKey, unknown, string]>([
    ['first_name', " Mary-Ann O'Neil ", MARYANNONEIL],
    ['last_name', 'MARYANN ONEIL', MARYANNONEIL],
    ['zip_code', '94103-1234', ZIP_94103],
    ['zip_code', 94103, ZIP_94103],
    ['zip_code', 'SW1A 1AA', SW1A1AA],
  ])('hashes %s %p after normalising it', (key, raw, hash) => {
    expect(personKeyValue(key, raw)).toBe(hash);
  });

  it.each<[PersonKey, unknown, string]>([
    ['city', ' San Jose ', 'sanjose'],
    ['city', 'Mu\u0308nchen', 'münchen'],
    ['city', 'München', 'münchen'],
    ['state', 'CA', 'ca'],
    ['state', ' c.a. ', 'ca'],
    ['country', 'US', 'us'],
    ['country', 'United States', 'us'],
    ['country', 'usa', 'us'],
    ['country', 'United Kingdom', 'gb'],
  ])('sends %s %p normalised, in plain text', (key, raw, sent) => {
    expect(personKeyValue(key, raw)).toBe(sent);
  });

  it('passes a name the sender already hashed through, lower-cased', () => {
    expect(personKeyValue('first_name', MARYANNONEIL.toUpperCase())).toBe(MARYANNONEIL);
  });

  it.each<[PersonKey, unknown]>([
    ['first_name', ''],
    ['first_name', ' - '],
    ['country', 'Atlantis'],
    ['country', 'XX'],
    ['city', null],
    ['city', SANJOSE_HASHED],
    ['state', { name: 'CA' }],
  ])('drops %s %p', (key, raw) => {
    expect(personKeyValue(key, raw)).toBeUndefined();
  });
});

const message = (extra: Partial<TrackedMessage>): TrackedMessage => ({ type: 'track', event: 'Order Completed', messageId: 'm-1', timestamp: '2026-01-01T00:00:00Z', ...extra });
const hashedName = (name: string) => personKeyValue('first_name', name);

describe('readPersonKeys', () => {
  it("reads Segment's traits: firstName, lastName and address; names and ZIP code hashed, the rest in plain text", () => {
    const keys = readPersonKeys(message({ traits: { firstName: 'Mary-Ann', lastName: "O'Neil", address: { city: 'München', state: 'CA', country: 'United States', postalCode: '94103' } } }));
    expect(keys).toEqual({ first_name: hashedName('maryann'), last_name: hashedName('oneil'), city: 'münchen', state: 'ca', country: 'us', zip_code: ZIP_94103 });
  });

  it.each<[string, Record<string, unknown>]>([
    ['city, state, zip and country flat in traits', { traits: { city: 'San Jose', state: 'CA', zip: '94103', country: 'US' } }],
    ['postalCode flat in context.traits', { context: { traits: { city: 'San Jose', state: 'CA', postalCode: '94103-1234', country: 'United States' } } }],
    ['zipcode and postal_code spellings, flat', { traits: { city: 'San Jose', state: 'CA', zipcode: '94103' }, context: { traits: { country: 'us', postal_code: '10001' } } }],
  ])('reads the address keys written flat: %s', (_case, where) => {
    expect(readPersonKeys(message(where))).toEqual({ city: 'sanjose', state: 'ca', country: 'us', zip_code: ZIP_94103 });
  });

  it('prefers the address object to flat keys of the same traits, and traits to context.traits', () => {
    const keys = readPersonKeys(message({ traits: { city: 'Flat City', address: { city: 'San Jose' } }, context: { traits: { city: 'Elsewhere', state: 'CA' } } }));
    expect(keys).toEqual({ city: 'sanjose', state: 'ca' });
  });

  it('takes snake_case spellings and context.traits when traits lack the key', () => {
    const keys = readPersonKeys(message({ traits: { first_name: 'Mary' }, context: { traits: { firstName: 'Other', last_name: 'Ann', address: { zip_code: 'SW1A 1AA', country: 'GB' } } } }));
    expect(keys).toEqual({ first_name: hashedName('mary'), last_name: hashedName('ann'), zip_code: SW1A1AA, country: 'gb' });
  });

  it('finds nothing in properties: a product name is not a person', () => {
    expect(readPersonKeys(message({ properties: { name: 'Fern', city: 'Paris', first_name: 'Jo' } }))).toEqual({});
  });
});
