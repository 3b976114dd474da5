/**
 * SQLSTATEs with which PostgreSQL refuses a statement naming what the schema does not have (any more): a table
 * (42P01), a column (42703), a function (42883), another object (42704), or a unique index matching an ON CONFLICT
 * target (42P10). Met in a row, they mean this code and the database's schema disagree.
 */
const SCHEMA_MISMATCH = new Set(['42P01', '42703', '42883', '42704', '42P10']);

/** How long refusals for the schema must keep coming before the readiness check takes them for this build being behind. */
export const SCHEMA_ERRORS_PERSIST_MS = 5_000;

export interface SchemaErrorWatch {
  /** Told the SQLSTATE of each statement the database refused (any other code is ignored). */
  note(sqlstate: string): void;
  /**
   * The SQLSTATEs seen when refusals for the schema have kept coming for `persistMs`, none more than `persistMs` after
   * the one before and the last one within `persistMs`; empty otherwise.
   */
  persisting(): string[];
}

export function createSchemaErrorWatch({ persistMs = SCHEMA_ERRORS_PERSIST_MS, now = Date.now } = {}): SchemaErrorWatch {
  let run: { since: number; last: number; codes: Set<string> } | undefined;
  return {
    note(sqlstate) {
      if (!SCHEMA_MISMATCH.has(sqlstate)) return;
      const at = now();
      if (run === undefined || at - run.last > persistMs) run = { since: at, last: at, codes: new Set() };
      run.last = at;
      run.codes.add(sqlstate);
    },
    persisting() {
      if (run === undefined || now() - run.last > persistMs || run.last - run.since < persistMs) return [];
      return [...run.codes].sort();
    },
  };
}
