import * as assert from 'assert';

import { Signalbox } from '../src/client.js';
import { resolveConfig, type SignalboxConfig } from '../src/config.js';
import { closeTestClients } from './helpers/test-client.js';

describe('configuration', () => {
  afterEach(closeTestClients);

  it('takes an API key string and applies every default', () => {
    const config = resolveConfig('dk_live_abc');
    assert.deepStrictEqual(
      { ...config, logger: typeof config.logger },
      {
        apiKey: 'dk_live_abc',
        batchUrl: 'https://ingest.signalbox.io/v1/batch',
        debug: false,
        flushAt: 20,
        flushInterval: 10_000,
        timeout: 10_000,
        retryLimit: 3,
        retryHorizon: 300_000,
        maxQueueSize: 1_000,
        onQueueFull: 'dropOldest',
        enabled: true,
        logger: 'function',
        transport: undefined,
      },
    );
  });

  it('takes a config object and keeps every option given', () => {
    const config = resolveConfig({
      apiKey: 'dk_live_abc',
      host: 'http://localhost:3000/ingest/',
      debug: true,
      flushAt: 1,
      flushInterval: 250,
      timeout: 2_000,
      retryLimit: 0,
      retryHorizon: 60_000,
      maxQueueSize: 50,
      onQueueFull: 'wait',
      enabled: false,
    });
    assert.strictEqual(config.batchUrl, 'http://localhost:3000/ingest/v1/batch');
    assert.deepStrictEqual(
      [config.debug, config.flushAt, config.flushInterval, config.timeout, config.retryLimit, config.retryHorizon, config.maxQueueSize, config.onQueueFull, config.enabled],
      [true, 1, 250, 2_000, 0, 60_000, 50, 'wait', false],
    );
  });

  it('throws at construction when the API key is missing, naming apiKey', () => {
    for (const missing of [undefined, '', { apiKey: '' }, {} as SignalboxConfig]) {
      assert.throws(() => new Signalbox(missing as SignalboxConfig), (error: Error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /apiKey is required/);
        return true;
      });
    }
  });

  it('rejects an API key that is not a string or has spaces', () => {
    assert.throws(() => resolveConfig({ apiKey: 42 as unknown as string }), /apiKey must be a string without spaces, got number/);
    assert.throws(() => resolveConfig(' dk_live_abc'), /apiKey must be a string without spaces/);
  });

  const outOfRange: Array<[keyof SignalboxConfig, number, string]> = [
    ['flushAt', 0, 'flushAt must be from 1 to 10000, got 0'],
    ['flushAt', 10_001, 'flushAt must be from 1 to 10000, got 10001'],
    ['flushInterval', 0, 'flushInterval must be from 1 to 2147483647, got 0'],
    ['timeout', -5, 'timeout must be from 1 to 2147483647, got -5'],
    ['retryLimit', -1, 'retryLimit must be from 0 to 20, got -1'],
    ['retryLimit', 21, 'retryLimit must be from 0 to 20, got 21'],
    ['maxQueueSize', 0, 'maxQueueSize must be from 1 to 9007199254740991, got 0'],
    ['retryHorizon', 86_400_001, 'retryHorizon must be from 0 to 86400000, got 86400001'],
  ];
  for (const [option, value, message] of outOfRange) {
    it(`throws a RangeError naming ${option} when it is ${value}`, () => {
      assert.throws(() => new Signalbox({ apiKey: 'dk_x', [option]: value }), (error: Error) => {
        assert.ok(error instanceof RangeError);
        assert.strictEqual(error.message, `Signalbox config: ${message}`);
        return true;
      });
    });
  }

  it('throws naming an option that is not an integer', () => {
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', flushAt: 2.5 }), /flushAt must be an integer, got 2.5 \(number\)/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', timeout: '100' as unknown as number }), /timeout must be an integer, got "100"/);
  });

  it('throws when maxQueueSize is below flushAt, since the queue could then never reach flushAt', () => {
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', flushAt: 50, maxQueueSize: 10 }), /maxQueueSize \(10\) must be at least flushAt \(50\)/);
  });

  it('throws naming a bad host, a non-boolean debug, a bad logger or transport, and unknown options', () => {
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', host: 'ingest.example.com' }), /host must be an http:\/\/ or https:\/\/ URL/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', host: 'ftp://ingest.example.com' }), /host must be/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', debug: 'yes' as unknown as boolean }), /debug must be true or false, got "yes"/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', logger: 'console' as unknown as () => void }), /logger must be a function/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', transport: {} as never }), /transport must be an object with a send\(request\) method/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', flushAT: 5 } as SignalboxConfig), /unknown option "flushAT"/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', enabled: 0 as unknown as boolean }), /enabled must be true or false, got 0 \(number\)/);
    assert.throws(() => resolveConfig({ apiKey: 'dk_x', onQueueFull: 'block' as never }), /onQueueFull must be "dropOldest" or "wait", got "block"/);
  });
});
