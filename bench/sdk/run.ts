import { fork } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';

import type { ClientResult } from './client-process';
import { CLIENT_PACKAGES, type ClientName } from './clients/bench-client';
import { printReport, type RunFigures } from './report';
import { Sink } from './sink';

const USAGE = `Usage: npm run bench --workspace sdk [-- --events N --rudderstack-events N --clients a,b]
  --events N              track calls per client (default 100000)
  --rudderstack-events N  track calls for @rudderstack/rudder-sdk-node, which slows to ~5 ms per call as its
                          queue grows (default 2000)
  --clients LIST          any of ${Object.keys(CLIENT_PACKAGES).join(',')} (default: all)`;

/** A client process that has not finished in this time is stopped and reported as incomplete. */
const RUN_TIME_LIMIT_MS = 10 * 60_000;

interface Options {
  events: number;
  rudderstackEvents: number;
  clients: ClientName[];
}

function parseOptions(argv: string[]): Options {
  const options: Options = { events: 100_000, rudderstackEvents: 2_000, clients: Object.keys(CLIENT_PACKAGES) as ClientName[] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--events') options.events = positiveInteger(flag, value);
    else if (flag === '--rudderstack-events') options.rudderstackEvents = positiveInteger(flag, value);
    else if (flag === '--clients') options.clients = (value ?? '').split(',').map((name) => clientName(name));
    else throw new Error(`unknown argument ${flag}\n${USAGE}`);
  }
  return options;
}

function positiveInteger(flag: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`${flag} needs a positive integer, got ${value}`);
  return number;
}

function clientName(name: string): ClientName {
  if (!(name in CLIENT_PACKAGES)) throw new Error(`unknown client "${name}"\n${USAGE}`);
  return name as ClientName;
}

function packageVersion(name: string): string {
  const file = path.resolve(__dirname, '../../../node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function runClient(name: ClientName, host: string, events: number): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'client-process.js'), [name, host, String(events)], { stdio: 'inherit' });
    let result: ClientResult | undefined;
    const limit = setTimeout(() => child.kill('SIGKILL'), RUN_TIME_LIMIT_MS);
    child.on('message', (message: ClientResult) => (result = message));
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      if (result) resolve(result);
      else reject(new Error(`${name} exited (${signal ?? `code ${code}`}) without finishing`));
    });
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const sink = new Sink();
  const host = await sink.start();
  const figures: RunFigures[] = [];
  try {
    for (const name of options.clients) {
      const events = name === 'rudderstack' ? options.rudderstackEvents : options.events;
      const label = `${CLIENT_PACKAGES[name]} ${packageVersion(CLIENT_PACKAGES[name])}`;
      console.log(`Running ${label}: ${events} track calls…`);
      sink.reset();
      try {
        const result = await runClient(name, host, events);
        figures.push({ name, label, events, result, sink: sink.snapshot() });
      } catch (error) {
        figures.push({ name, label, events, failure: (error as Error).message, sink: sink.snapshot() });
      }
    }
  } finally {
    await sink.stop();
  }
  printReport(figures);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
