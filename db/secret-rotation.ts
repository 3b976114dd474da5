import type { Knex } from 'knex';
import type { SecretBox } from './secret-box';

/** Every column holding values sealed with SECRET_KEY, with the column that names its row. */
export const SEALED_COLUMNS = [{ table: 'tiktok_connections', rowKey: 'workspace_id', column: 'access_token_ciphertext' }] as const;

type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface RotationKeys {
  current: SecretBox;
  next: SecretBox;
}

export interface ColumnRotation {
  table: string;
  column: string;
  reencrypted: number;
  /** Sealed under the new key already: by an earlier run, or written by a process given the new key. */
  alreadyNew: number;
  /** Row keys of values neither key opens; they are left as they are. */
  unreadable: string[];
}

function opens(box: SecretBox, sealed: string): string | undefined {
  try {
    return box.open(sealed);
  } catch {
    return undefined;
  }
}

type BatchRotation = Omit<ColumnRotation, 'table' | 'column'> & { lastKey: string | undefined };

/** One batch after `after`, in one transaction; its rows are locked, so a token written meanwhile waits and is not lost. */
async function rotateBatch(db: Knex, { table, rowKey, column }: SealedColumn, keys: RotationKeys, after: string | undefined, size: number): Promise<BatchRotation> {
  return db.transaction(async (trx) => {
    const query = trx(table).select<{ key: string; value: string }[]>({ key: rowKey, value: column }).whereNotNull(column).orderBy(rowKey).limit(size).forUpdate();
    const rows = await (after === undefined ? query : query.where(rowKey, '>', after));
    const batch: BatchRotation = { reencrypted: 0, alreadyNew: 0, unreadable: [], lastKey: rows.at(-1)?.key };
    for (const { key, value } of rows) {
      if (opens(keys.next, value) !== undefined) {
        batch.alreadyNew += 1;
        continue;
      }
      const plaintext = opens(keys.current, value);
      if (plaintext === undefined) {
        batch.unreadable.push(key);
        continue;
      }
      await trx(table).where(rowKey, key).update({ [column]: keys.next.seal(plaintext) });
      batch.reencrypted += 1;
    }
    return batch;
  });
}

/**
 * Re-seals every value sealed under `current` with `next`, batch by batch. A value `next` already opens is left
 * alone, so running it again (after an interruption, or to catch a token written meanwhile) changes nothing twice.
 */
export async function rotateSealedSecrets(db: Knex, keys: RotationKeys, { batchSize = 500 } = {}): Promise<ColumnRotation[]> {
  const rotations: ColumnRotation[] = [];
  for (const sealed of SEALED_COLUMNS) {
    const tally: ColumnRotation = { table: sealed.table, column: sealed.column, reencrypted: 0, alreadyNew: 0, unreadable: [] };
    let after: string | undefined;
    do {
      const batch = await rotateBatch(db, sealed, keys, after, batchSize);
      tally.reencrypted += batch.reencrypted;
      tally.alreadyNew += batch.alreadyNew;
      tally.unreadable.push(...batch.unreadable);
      after = batch.lastKey;
    } while (after !== undefined);
    rotations.push(tally);
  }
  return rotations;
}
