import { hashPersonKey, readPersonKeys, type PersonKey } from './advanced-matching';
import type { TrackedMessage } from './message';

// Golden hashes computed with `printf '%s' <normalised> | sha256sum`.
const MARYANNONEIL = '5e1ba0eb97d2d3adb8e3ed3b170f21f7505ed4faaffa3f4381e466117d1478eb';
const SANJOSE = 'ce53c678303fa3e5678b3f614d1daeffc31e32137844b42b46546183bc8bb3d8';
const MUNCHEN = 'f75c175f552c8b2bf46ef4b282ee782c81cf8687f66a8fe8278cc56fa727503e';
const CA = '6959097001d10501ac7d54c0bdb8db61420f658f2922cc26e46d536119a31126';
const US = '79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621';
const GB = '0b407281768f0e833afef47ed464b6571d01ca4d53c12ce5c51d1462f4ad6677';
const ZIP_94103 = '91dc2519ea98c5002cf2091e6a12b772eafdce9dca618e626d7d3b8275361789';
const SW1A1AA = '830e1d4b9838bab1f5c2acdb23e0b502ff13a9832c4632e8d67a1d43d3b7f614';

describe('hashPersonKey', () => {
  it.each<[PersonKey, unknown, string]>([
    ['first_name', " Mary-Ann O'Neil ", MARYANNONEIL],
    ['last_name', 'MARYANN ONEIL', MARYANNONEIL],
    ['city', ' San Jose ', SANJOSE],
    ['city', 'Mu\u0308nchen', MUNCHEN],
    ['city', 'München', MUNCHEN],
    ['state', 'CA', CA],
    ['state', ' c.a. ', CA],
    ['country', 'US', US],
    ['country', 'United States', US],
    ['country', 'usa', US],
    ['country', 'United Kingdom', GB],
    ['zip_code', '94103-1234', ZIP_94103],
    ['zip_code', 94103, ZIP_94103],
    ['zip_code', 'SW1A 1AA', SW1A1AA],
  ])('normalises %s %p before hashing', (key, raw, hash) => {
    expect(hashPersonKey(key, raw)).toBe(hash);
  });

  it('passes a value the sender already hashed through, lower-cased', () => {
    expect(hashPersonKey('city', SANJOSE.toUpperCase())).toBe(SANJOSE);
  });

  it.each<[PersonKey, unknown]>([
    ['first_name', ''],
    ['first_name', ' - '],
    ['country', 'Atlantis'],
    ['country', 'XX'],
    ['city', null],
    ['state', { name: 'CA' }],
  ])('drops %s %p instead of hashing it', (key, raw) => {
    expect(hashPersonKey(key, raw)).toBeUndefined();
  });
});

const message = (extra: Partial<TrackedMessage>): TrackedMessage => ({ type: 'track', event: 'Order Completed', messageId: 'm-1', timestamp: '2026-01-01T00:00:00Z', ...extra });

describe('readPersonKeys', () => {
  it("reads Segment's traits: firstName, lastName and address, hashed", () => {
    const keys = readPersonKeys(message({ traits: { firstName: 'Mary-Ann', lastName: "O'Neil", address: { city: 'München', state: 'CA', country: 'United States', postalCode: '94103' } } }));
    expect(keys).toEqual({
      first_name: hashPersonKey('first_name', 'maryann'),
      last_name: hashPersonKey('last_name', 'oneil'),
      city: MUNCHEN,
      state: CA,
      country: US,
      zip_code: ZIP_94103,
    });
  });

  it('takes snake_case spellings and context.traits when traits lack the key', () => {
    const keys = readPersonKeys(message({ traits: { first_name: 'Mary' }, context: { traits: { firstName: 'Other', last_name: 'Ann', address: { zip_code: 'SW1A 1AA', country: 'GB' } } } }));
    expect(keys).toEqual({ first_name: hashPersonKey('first_name', 'mary'), last_name: hashPersonKey('last_name', 'ann'), zip_code: SW1A1AA, country: GB });
  });

  it('finds nothing in properties: a product name is not a person', () => {
    expect(readPersonKeys(message({ properties: { name: 'Fern', city: 'Paris', first_name: 'Jo' } }))).toEqual({});
  });
});
