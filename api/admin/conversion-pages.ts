import type { ConversionRepository, MessagePosition } from '../../db/repositories/conversions';
import type { ConversionRow, ConversionStatus } from '../../db/types';
import { badRequest } from '../http/http-error';

/**
 * Cursor paging, newest first. `created_at` has microsecond precision but a JS Date only milliseconds, and every
 * conversion of one batch shares its transaction's timestamp, so the cursor cannot be "(created_at, id) of the last
 * row". It is the last row's millisecond plus how many rows of that millisecond were already listed; the next page
 * asks for everything before the end of that millisecond and skips those rows.
 */
interface Cursor {
  millisecond: number;
  listed: number;
}

const SMALLEST_UUID = '00000000-0000-0000-0000-000000000000';

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.millisecond, cursor.listed])).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const [millisecond, listed] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(millisecond) && Number.isSafeInteger(listed) && (listed as number) > 0) {
      return { millisecond: millisecond as number, listed: listed as number };
    }
  } catch {
    // fall through to the 400 below
  }
  const issue = 'cursor must be a nextCursor value returned by this endpoint';
  throw badRequest(issue, [issue]);
}

export interface ConversionPage {
  rows: (ConversionRow & MessagePosition)[];
  nextCursor: string | null;
}

export async function conversionPage(
  conversions: Pick<ConversionRepository, 'list'>,
  workspaceId: string,
  query: { status?: ConversionStatus; source?: ConversionRow['event_source']; limit: number; cursor?: Cursor },
): Promise<ConversionPage> {
  const skip = query.cursor?.listed ?? 0;
  const before = query.cursor && { createdAt: new Date(query.cursor.millisecond + 1), id: SMALLEST_UUID };
  const fetched = await conversions.list(workspaceId, { status: query.status, source: query.source, limit: skip + query.limit + 1, before });
  const upToPageEnd = fetched.slice(0, skip + query.limit);
  const rows = upToPageEnd.slice(skip);
  const last = rows.at(-1);
  if (fetched.length <= upToPageEnd.length || last === undefined) return { rows, nextCursor: null };
  const millisecond = last.created_at.getTime();
  const listed = upToPageEnd.filter((row) => row.created_at.getTime() === millisecond).length;
  return { rows, nextCursor: encodeCursor({ millisecond, listed }) };
}
