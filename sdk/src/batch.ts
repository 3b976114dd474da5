import type { EventQueue, EventRun } from './event-queue';
import { MAX_BATCH_BYTES, MAX_EVENTS_PER_BATCH } from './limits';

const PREFIX = Buffer.from('{"batch":[');
const SUFFIX_BYTES = Buffer.byteLength(`],"sentAt":"${new Date(0).toISOString()}"}`);

/** Bytes of message JSON (commas between them included) that fit in one request beside the envelope. */
export const MAX_EVENT_BYTES_PER_BATCH = MAX_BATCH_BYTES - PREFIX.length - SUFFIX_BYTES;

/**
 * One request's worth of events, taken from the queue. Its bytes are fixed when it is taken, so every retry sends
 * the same messages with the same messageIds; only `sentAt` is new for each attempt.
 */
export class Batch implements EventRun {
  readonly firstSeq: number;
  readonly count: number;
  private readonly pieces: Buffer[];

  constructor(queue: EventQueue) {
    const taken = queue.take(MAX_EVENTS_PER_BATCH, MAX_EVENT_BYTES_PER_BATCH);
    this.firstSeq = taken.firstSeq;
    this.count = taken.count;
    this.pieces = taken.pieces;
  }

  /** The uncompressed request body in parts, with `sentAt` set to the time of this attempt. */
  bodyParts(sentAt: Date): Buffer[] {
    return [PREFIX, ...this.pieces, Buffer.from(`],"sentAt":"${sentAt.toISOString()}"}`)];
  }
}
