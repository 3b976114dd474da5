import { isGrpcServiceError } from '@temporalio/client';
import { databaseErrorCode, isStorageUnavailable } from '../../db/storage-errors';

/** gRPC codes of a Temporal service that cannot serve now: DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const TEMPORAL_BUSY_CODES = new Set([4, 8, 14]);

function temporalUnavailable(error: unknown): boolean {
  const grpc = isGrpcServiceError(error) ? error : (error as { cause?: unknown } | null)?.cause;
  return isGrpcServiceError(grpc) && TEMPORAL_BUSY_CODES.has(grpc.code);
}

/**
 * PostgreSQL or Temporal cannot serve right now (unreachable, shut down, out of connections, a deadline, a
 * serialization failure or deadlock): the step waits it out, retried, and no conversion is blamed for it.
 */
export function isUnavailable(error: unknown): boolean {
  return isStorageUnavailable(error) || temporalUnavailable(error);
}

const MESSAGE_CHARS = 500;
// Control characters (jsonb refuses a NUL; the others read badly in a timeline) and halves of a UTF-16 surrogate pair
// on their own (jsonb refuses those too).
const UNSTORABLE = /[\p{Cc}\p{Cs}]/gu;

/**
 * The error as its culprit's timeline keeps it: for a database error PostgreSQL's own words and SQLSTATE, without
 * the statement and values knex puts in front (those are other conversions' data); otherwise the error's name and
 * message. Shortened, and storable in jsonb whatever it quoted.
 */
export function describeInternalError(error: unknown): string {
  const sqlstate = databaseErrorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  let text = `${error instanceof Error ? error.name : 'Error'}: ${message}`;
  if (sqlstate !== undefined) {
    const statementEnds = message.lastIndexOf(' - ');
    text = `PostgreSQL ${sqlstate}: ${statementEnds === -1 ? message : message.slice(statementEnds + 3)}`;
  }
  return text.replace(UNSTORABLE, ' ').slice(0, MESSAGE_CHARS);
}

/**
 * Runs `work` on every conversion of a group; when it throws anything but unavailability, on each half, recursively,
 * down to the conversions it still throws for on their own, which `blame` ends: one conversion that breaks a step
 * never holds back the others (a culprit costs about two runs per halving, 20 in a group of 1,000). `work` must keep
 * what a part finished when a later part fails, and do nothing twice when run again (each part commits its own writes).
 * Returns how many conversions were blamed.
 */
export async function isolateCulprits<T>(items: readonly T[], work: (part: readonly T[]) => Promise<void>, blame: (culprit: T, error: unknown) => Promise<void>): Promise<number> {
  if (items.length === 0) return 0;
  try {
    await work(items);
    return 0;
  } catch (error) {
    if (isUnavailable(error)) throw error;
    if (items.length === 1) {
      await blame(items[0] as T, error);
      return 1;
    }
    const half = Math.ceil(items.length / 2);
    return (await isolateCulprits(items.slice(0, half), work, blame)) + (await isolateCulprits(items.slice(half), work, blame));
  }
}
