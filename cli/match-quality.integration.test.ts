import type { FastifyInstance } from 'fastify';
import type { Repositories } from '../db/repositories';
import { runAgainst } from '../test/helpers/cli';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { buildTestApp } from '../test/helpers/test-app';

let testDb: TestDatabase;
let app: FastifyInstance;
let repos: Repositories;
let url: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ({ app, repos } = buildTestApp(testDb.db));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const signalbox = (args: string[]) => runAgainst(url, args);

describe('signalbox CLI: match quality and honest reports', () => {
  it('sets the consent requirement and exchange rates, and names a bad rate', async () => {
    const ws = (await repos.workspaces.create('Fern shop')).id;
    const set = await signalbox(['settings', 'set', ws, '--consent-required', '--exchange-rates', 'eur=1.08, JPY=0.0065']);
    expect(set.stdout).toMatch(/^Consent required: +yes: the tracking script stores and sends nothing until consent\.grant\(\)$/m);
    expect(set.stdout).toMatch(/^Exchange rates: +EUR 1\.08, JPY 0\.0065$/m);
    const cleared = JSON.parse((await signalbox(['settings', 'set', ws, '--no-consent-required', '--clear-exchange-rates', '--json'])).stdout);
    expect(cleared).toMatchObject({ consentRequired: false, exchangeRates: {} });
    expect(await signalbox(['settings', 'set', ws, '--exchange-rates', 'EUR'])).toEqual({ code: 1, stdout: '', stderr: 'Error: --exchange-rates: "EUR" is not CURRENCY=RATE, e.g. EUR=1.08' });
    expect((await signalbox(['settings', 'set', ws, '--exchange-rates', 'EUR=0'])).stderr).toMatch(/^Error: exchangeRates\.EUR must be a positive decimal/);
  });

  it('prints the ad URL parameters a marketer adds to every ad, and the match-key coverage', async () => {
    const ws = (await repos.workspaces.create('Ads shop')).id;
    const parameters = await signalbox(['tiktok', 'url-parameters', ws]);
    expect(parameters.code).toBe(0);
    expect(parameters.stdout.split('\n').slice(0, 3)).toEqual(['Add to the landing page URL of every TikTok ad:', '', '  campaign_id=__CAMPAIGN_ID__&adgroup_id=__AID__&ad_id=__CID__']);

    const coverage = await signalbox(['match-keys', ws, '--days', '7']);
    expect(coverage.stdout).toMatch(/^0 conversions delivered in the last 7 days/);
    expect(coverage.stdout).toMatch(/^KEY +SHARE +CONVERSIONS +FROM MESSAGE +FROM VISITOR +FROM IDENTITY$/m);
    expect(coverage.stdout).toMatch(/^ip +- +0 +0 +0 +0$/m);
    expect((await signalbox(['match-keys', ws, '--days', '400'])).stderr).toBe('Error: days must be a whole number of days from 1 to 366');
  });
});
