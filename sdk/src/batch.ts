import type { EventQueue } from './event-queue.js';
import { EventList, EventRun, type EventSet } from './event-set.js';
import { MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH } from './rules/index.js';

const PREFIX = Buffer.from('{"batch":[');
const SUFFIX_BYTES = Buffer.byteLength(`],"sentAt":"${new Date(0).toISOString()}"}`);
const COMMA = Buffer.from(',');

/** Bytes of message JSON (commas between them included) that fit in one request beside the envelope. */
export const MAX_EVENT_BYTES_PER_BATCH = MAX_BATCH_BYTES - PREFIX.length - SUFFIX_BYTES;

/**
 * One request's worth of events, taken from the queue. Its bytes are fixed when it is taken, so every retry sends
 * the same messages with the same messageIds; only `sentAt` is new for each attempt.
 */
export class Batch {
  private constructor(
    readonly events: EventSet,
    /** Sequence number of each event, in the batch's order; built only when a batch is split. */
    private readonly seqs: (() => number[]),
    private readonly pieces: Buffer[],
    private readonly sizes: number[],
  ) {}

  static take(queue: EventQueue): Batch {
    const taken = queue.take(MAX_EVENTS_PER_BATCH, MAX_EVENT_BYTES_PER_BATCH);
    const { firstSeq, count } = taken;
    return new Batch(new EventRun(firstSeq, count), () => Array.from({ length: count }, (_, i) => firstSeq + i), taken.pieces, taken.sizes);
  }

  get count(): number {
    return this.events.count;
  }

  /** The uncompressed request body in parts, with `sentAt` set to the time of this attempt. */
  bodyParts(sentAt: Date): Buffer[] {
    return [PREFIX, ...this.pieces, Buffer.from(`],"sentAt":"${sentAt.toISOString()}"}`)];
  }

  /**
   * Splits the batch by the positions of its events (as a 400 names them, `batch[3]`): the events at `indexes`, and
   * a batch of the others (undefined when none is left).
   */
  split(indexes: ReadonlySet<number>): { removed: EventSet; rest: Batch | undefined } {
    const seqs = this.seqs();
    const joined = Buffer.concat(this.pieces);
    const kept: { seq: number; json: Buffer }[] = [];
    let offset = 0;
    this.sizes.forEach((size, index) => {
      if (!indexes.has(index)) kept.push({ seq: seqs[index], json: joined.subarray(offset, offset + size) });
      offset += size + 1;
    });
    const removed = new EventList(seqs.filter((_, index) => indexes.has(index)));
    if (kept.length === 0) return { removed, rest: undefined };
    const pieces = kept.flatMap(({ json }, i) => (i === 0 ? [json] : [COMMA, json]));
    const keptSeqs = kept.map(({ seq }) => seq);
    const rest = new Batch(new EventList(keptSeqs), () => keptSeqs, pieces, kept.map(({ json }) => json.length));
    return { removed, rest };
  }
}
