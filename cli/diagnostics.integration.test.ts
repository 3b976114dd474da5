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

describe('signalbox diagnostics', () => {
  it('prints per TikTok event what became of its conversions, and TikTok’s refusals in words with an example', async () => {
    const ws = (await repos.workspaces.create('Fern shop')).id;
    await signalbox(['rules', 'put', ws, 'purchase']);
    const key = JSON.parse((await signalbox(['keys', 'create', ws, '--name', 'backend', '--json'])).stdout).key as string;
    const purchase = (n: number) => ({ type: 'track', messageId: `p-${n}`, event: 'purchase', userId: `u-${n}`, properties: { order_id: `F-${n}`, total: 10, currency: 'EUR' } });
    const sent = await app.inject({ method: 'POST', url: '/v1/batch', payload: { batch: [purchase(1), purchase(2)] }, headers: { authorization: `Bearer ${key}` } });
    expect(sent.statusCode).toBe(200);
    const payload = { event_source: 'web', event_source_id: 'PIXEL', data: [{ event: 'CompletePayment', properties: { value: 10, currency: 'EUR' } }] };
    await testDb.db('conversions').where({ workspace_id: ws, event_id: 'F-1' }).update({ status: 'delivered', tiktok_code: 0, request_payload: payload });
    await testDb.db('conversions').where({ workspace_id: ws, event_id: 'F-2' }).update({ status: 'failed', reason: 'tiktok_rejected', tiktok_code: 40001, tiktok_message: 'No permission to operate pixel code: PIXEL.', request_payload: payload });
    const f2 = (await testDb.db('conversions').where({ workspace_id: ws, event_id: 'F-2' }).first('id')) as { id: string };

    const printed = await signalbox(['diagnostics', ws]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^Conversions whose event happened in the last 7 days, per TikTok event\.$/m);
    expect(printed.stdout).toMatch(/^TIKTOK EVENT +RECEIVED +DELIVERED +FAILED +SKIPPED +REFUSED BY TIKTOK +MISSING +REPEATED +NO CLICK$/m);
    expect(printed.stdout).toMatch(/^CompletePayment +2 +1 +1 +0 +1 +2 of 2 +0 +0\.0%$/m);
    expect(printed.stdout).toContain(
      `  CompletePayment: 1 × TikTok refused access to the pixel or advertiser: the connected TikTok account must be an admin or operator of the advertiser (check the pixel on Sources) (code 40001). Example: conversion ${f2.id} (event ID F-2), TikTok said "No permission to operate pixel code: PIXEL."`,
    );
    expect(await signalbox(['diagnostics', ws, '--days', '91'])).toMatchObject({ code: 1, stderr: 'Error: days must be a whole number of days from 1 to 90' });
  });
});
