import { EventRun } from './event-set.js';

export interface TakenEvents {
  firstSeq: number;
  count: number;
  /** The events' JSON joined with commas, in stretches of the queue's buffers (not copies). */
  pieces: Buffer[];
  /** Byte length of each event's JSON. */
  sizes: number[];
}

interface Chunk {
  buffer: Buffer;
  used: number;
}

/** Large enough for several events of the maximum size, small enough to waste little when an idle client keeps one. */
const CHUNK_BYTES = 256 * 1024;
const COMMA = 0x2c;

/**
 * Queued events, oldest first, kept as UTF-8 JSON packed into chunk buffers outside the JavaScript heap: 100,000
 * queued events cost their bytes and no garbage-collected objects, and batches are sent from those same bytes. Every event gets a sequence number, so the
 * queue always holds the consecutive run `firstSeq … lastSeq`, and a taken batch is a run too.
 */
export class EventQueue {
  private chunks: Chunk[] = [];
  /** Byte length of each event, oldest at `head`. */
  private sizes: number[] = [];
  private head = 0;
  /** Where the oldest event starts in `chunks[0]`. */
  private readOffset = 0;
  private headSeq = 1;

  get length(): number {
    return this.sizes.length - this.head;
  }

  /** Sequence number of the oldest queued event (when the queue is empty: the next one to be queued). */
  get firstSeq(): number {
    return this.headSeq;
  }

  /** Sequence number of the newest event ever queued (0 before the first). */
  get lastSeq(): number {
    return this.headSeq + this.length - 1;
  }

  push(json: string): void {
    let chunk = this.chunks[this.chunks.length - 1];
    const room = chunk ? chunk.buffer.length - chunk.used : 0;
    // UTF-8 needs at most 3 bytes per UTF-16 unit; measure exactly only when that bound might not fit.
    const needed = json.length * 3 + 1 <= room ? 0 : Buffer.byteLength(json) + 1;
    if (!chunk || needed > room) {
      chunk = { buffer: Buffer.allocUnsafe(Math.max(CHUNK_BYTES, needed)), used: 0 };
      this.chunks.push(chunk);
    }
    const written = chunk.buffer.write(json, chunk.used);
    chunk.buffer[chunk.used + written] = COMMA;
    chunk.used += written + 1;
    this.sizes.push(written);
  }

  dropOldest(count: number): EventRun {
    const run = new EventRun(this.headSeq, Math.min(count, this.length));
    this.advance(run.count);
    return run;
  }

  /** Takes the oldest events, as many as fit in `maxCount` events and `maxBytes` of JSON joined with commas. */
  take(maxCount: number, maxBytes: number): TakenEvents {
    const available = Math.min(maxCount, this.length);
    let count = 0;
    let bytes = 0;
    while (count < available) {
      const withComma = this.sizes[this.head + count] + 1;
      // The last comma is not part of the joined JSON, hence the `+ 1` of slack.
      if (count > 0 && bytes + withComma > maxBytes + 1) break;
      bytes += withComma;
      count += 1;
    }
    const taken: TakenEvents = { firstSeq: this.headSeq, count, pieces: [], sizes: this.sizes.slice(this.head, this.head + count) };
    this.advance(count, (chunk, start, end) => taken.pieces.push(chunk.subarray(start, end)));
    const last = taken.pieces.length - 1;
    if (last >= 0) taken.pieces[last] = taken.pieces[last].subarray(0, taken.pieces[last].length - 1);
    return taken;
  }

  /** Moves past the `count` oldest events; `read` gets each stretch of their bytes first. */
  private advance(count: number, read?: (chunk: Buffer, start: number, end: number) => void): void {
    let remaining = count;
    while (remaining > 0) {
      let chunk = this.chunks[0];
      if (this.readOffset >= chunk.used) {
        this.chunks.shift();
        this.readOffset = 0;
        chunk = this.chunks[0];
      }
      const start = this.readOffset;
      while (remaining > 0 && this.readOffset < chunk.used) {
        this.readOffset += this.sizes[this.head] + 1;
        this.head += 1;
        remaining -= 1;
      }
      read?.(chunk.buffer, start, this.readOffset);
    }
    this.headSeq += count;
    this.compact();
  }

  private compact(): void {
    // Chunks are never rewound or reused: taken batches still point into them until they are delivered.
    if (this.head >= 1024 && this.head * 2 >= this.sizes.length) {
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
