import * as assert from 'assert';
import { spawn } from 'child_process';
import * as path from 'path';

import { IngestDouble } from './helpers/ingest-double.js';

const API_KEY = 'dk_live_exit';
/** Far below the 60 s flushInterval the script sets: a process still alive by then is held open by a timer. */
const EXIT_DEADLINE_MS = 15_000;

interface Exit {
  code: number | null;
  stderr: string;
  exitedByItself: boolean;
}

/** Runs test/fixtures/exit-scenario.js on this same Node binary, with unhandled rejections made fatal. */
function runScript(host: string, apiKey: string, scenario = 'queued'): Promise<Exit> {
  return new Promise((resolve) => {
    const script = path.join(__dirname, 'fixtures', 'exit-scenario.js');
    const child = spawn(process.execPath, ['--unhandled-rejections=strict', script, host, apiKey, scenario], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let exitedByItself = true;
    const deadline = setTimeout(() => {
      exitedByItself = false;
      child.kill('SIGKILL');
    }, EXIT_DEADLINE_MS);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stderr, exitedByItself });
    });
  });
}

describe('process exit', () => {
  let ingest: IngestDouble;
  let host: string;

  beforeEach(async () => {
    ingest = new IngestDouble(new Set([API_KEY]));
    host = await ingest.start();
  });
  afterEach(() => ingest.stop());

  it('delivers events still queued when a script ends, then lets the process exit', async () => {
    const exit = await runScript(host, API_KEY);
    assert.deepStrictEqual(exit, { code: 0, stderr: '', exitedByItself: true });
    assert.deepStrictEqual([...ingest.stored.values()].map((message) => message.event), ['queued-at-exit']);
  });

  it('holds the exiting process open through a retry wait until the batch is delivered', async () => {
    ingest.failNext({ status: 503 });
    const exit = await runScript(host, API_KEY);
    assert.deepStrictEqual(exit, { code: 0, stderr: '', exitedByItself: true });
    assert.deepStrictEqual(ingest.statuses, [503, 200]);
    assert.strictEqual(ingest.stored.size, 1);
  });

  it('exits cleanly, without an unhandled rejection, when the last batch is refused, and says so without a listener', async () => {
    const exit = await runScript(host, 'dk_unknown');
    assert.deepStrictEqual([exit.code, exit.exitedByItself], [0, true]);
    assert.match(exit.stderr, /^\(node:\d+\) \[SIGNALBOX_UNHANDLED_FAILURE\] SignalboxWarning: Failed to deliver 1 event: the ingest API rejected them \(HTTP 401: unknown or revoked API key\); not retried\. Add a listener with client\.on\('error', …\)/);
    assert.deepStrictEqual(ingest.statuses, [401]);
  });

  it('survives a refused call whose promise nobody handles (fatal since Node 15), and warns about it', async () => {
    const exit = await runScript(host, API_KEY, 'unhandled-call');
    assert.deepStrictEqual([exit.code, exit.exitedByItself], [0, true]);
    assert.match(exit.stderr, /\[SIGNALBOX_UNHANDLED_FAILURE\] SignalboxWarning: A call was refused and its promise was not handled: track\(\): the event needs a userId or an anonymousId\./);
    assert.doesNotMatch(exit.stderr, /UnhandledPromiseRejection|ERR_UNHANDLED_REJECTION/);
    assert.deepStrictEqual([...ingest.stored.values()].map((message) => message.event), ['queued-at-exit']);
  });
});
