import { serialize } from 'pg-protocol';
import { createKnownLinks } from '../../api/ingest/known-links';
import { parseBatch } from '../../api/ingest/parse-messages';
import { profilesOf, receive, toNewEvent } from '../../api/ingest/record-batch';
import { dayOf } from '../../db/repositories/event-days';
import { storeUnmappedQuery } from '../../db/repositories/ingest-writes';
import { benchEvents, chunk, eventCsvLine } from './workload';

/**
 * The CPU one process spends turning events into what it sends PostgreSQL, without the network or the server: the
 * ingest API's way (each request's JSON parsed and checked, the group's profiles, its statement's values bound as pg
 * writes them) beside the COPY loader's (the same rows as CSV lines, as copy.ts writes them). Both run here, one after
 * the other, so the ratio does not depend on what else the machine is doing; bench:ingest measures the processes whole.
 */
const EVENTS = 20_000;
const ROUNDS = 12;
const WARM_UP_ROUNDS = 2;
const GROUP_REQUESTS = 2;

const events = benchEvents(EVENTS);
const bodies = chunk(events, 100).map((batch) => JSON.stringify({ batch }));
const workspace = { id: 'ws_bench', defaultPhoneRegion: 'US' };
const knownLinks = createKnownLinks();

function ingestOnce(): number {
  let bytes = 0;
  for (const group of chunk(bodies, GROUP_REQUESTS)) {
    const received = group.flatMap((body) => receive(parseBatch(JSON.parse(body)).messages, { receivedAt: new Date() }));
    const profiles = profilesOf(workspace, received, knownLinks);
    const query = storeUnmappedQuery(workspace.id, received.map(toNewEvent), profiles, ['product_viewed'], dayOf(new Date()));
    // The event names as pg writes a text array (these need no quoting).
    const values = (query.values ?? []).map((value) => (Array.isArray(value) ? `{${value.join(',')}}` : value));
    bytes += serialize.bind({ statement: query.name, values }).length;
    knownLinks.remember(workspace.id, profiles.links);
  }
  return bytes;
}

function copyOnce(): number {
  let bytes = 0;
  for (const event of events) bytes += Buffer.byteLength(eventCsvLine(workspace.id, event));
  return bytes;
}

/** The median CPU microseconds per event of `work` over the rounds after the warm-up, and the bytes it made. */
function measure(work: () => number): { microseconds: number; bytes: number } {
  const perEvent: number[] = [];
  let bytes = 0;
  for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
    const before = process.cpuUsage();
    bytes = work();
    const used = process.cpuUsage(before);
    if (round >= WARM_UP_ROUNDS) perEvent.push((used.user + used.system) / EVENTS);
  }
  perEvent.sort((a, b) => a - b);
  return { microseconds: perEvent[Math.floor(perEvent.length / 2)] as number, bytes };
}

const ingest = measure(ingestOnce);
const copy = measure(copyOnce);
console.log(`Preparing ${EVENTS.toLocaleString('en-US')} events for PostgreSQL in one process, median of ${ROUNDS} rounds (CPU per event):`);
console.log(`  ingest API (requests of 100 parsed and checked, groups of ${GROUP_REQUESTS} requests bound as one statement): ${ingest.microseconds.toFixed(1)} µs, ${Math.round(ingest.bytes / EVENTS)} bytes sent per event`);
console.log(`  COPY loader (CSV lines of the same rows): ${copy.microseconds.toFixed(1)} µs, ${Math.round(copy.bytes / EVENTS)} bytes per event`);
console.log(`  ingest / COPY: ${(ingest.microseconds / copy.microseconds).toFixed(2)}×`);
