/** Which queued events (by sequence number) a batch or a failure is about. */
export interface EventSet {
  readonly count: number;
  /** How many of them have a sequence number up to `seq`. */
  countThrough(seq: number): number;
}

/** Consecutive events: sequence numbers `firstSeq … firstSeq+count-1`. */
export class EventRun implements EventSet {
  constructor(
    readonly firstSeq: number,
    readonly count: number,
  ) {}

  countThrough(seq: number): number {
    return Math.max(0, Math.min(this.count, seq - this.firstSeq + 1));
  }
}

/** Any events, e.g. those a 400 singled out of a batch. */
export class EventList implements EventSet {
  constructor(private readonly seqs: readonly number[]) {}

  get count(): number {
    return this.seqs.length;
  }

  countThrough(seq: number): number {
    return this.seqs.filter((s) => s <= seq).length;
  }
}
