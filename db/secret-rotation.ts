import type { Knex } from 'knex';
import type { SecretBox } from './secret-box';
import { SEALED_COLUMNS, sealedColumnName, type SealedColumn, type SealedColumnName } from './sealed-columns';

export interface RotationKeys {
  /** The key being retired (SECRET_KEY_PREVIOUS): what it opens is sealed again under `to`. */
  from: SecretBox;
  /** The key in use (SECRET_KEY). */
  to: SecretBox;
}

export interface ColumnRotation {
  column: SealedColumnName;
  reencrypted: number;
  /** Sealed under the new key already: by an earlier run, or written by a service since it was given the new key. */
  alreadyNew: number;
  /** Row keys of values neither key opens; they are left as they are. */
  unreadable: string[];
}

function opens(box: SecretBox, column: SealedColumnName, sealed: string): string | undefined {
  try {
    return box.open(column, sealed);
  } catch {
    return undefined;
  }
}

type BatchRotation = Omit<ColumnRotation, 'column'> & { lastKey: string | undefined };

/** One batch after `after`, in one transaction; its rows are locked, so a value written meanwhile waits and is not lost. */
async function rotateBatch(db: Knex, sealed: SealedColumn, keys: RotationKeys, after: string | undefined, size: number): Promise<BatchRotation> {
  const { table, rowKey, column } = sealed;
  const name = sealedColumnName(sealed);
  return db.transaction(async (trx) => {
    const query = trx(table).select<{ key: string; value: string }[]>({ key: rowKey, value: column }).whereNotNull(column).orderBy(rowKey).limit(size).forUpdate();
    const rows = await (after === undefined ? query : query.where(rowKey, '>', after));
    const batch: BatchRotation = { reencrypted: 0, alreadyNew: 0, unreadable: [], lastKey: rows.at(-1)?.key };
    for (const { key, value } of rows) {
      if (opens(keys.to, name, value) !== undefined) {
        batch.alreadyNew += 1;
        continue;
      }
      const plaintext = opens(keys.from, name, value);
      if (plaintext === undefined) {
        batch.unreadable.push(key);
        continue;
      }
      await trx(table).where(rowKey, key).update({ [column]: keys.to.seal(name, plaintext) });
      batch.reencrypted += 1;
    }
    return batch;
  });
}

/**
 * Re-seals under `to` every value of the registry's columns that `from` opens, batch by batch. A value `to` already
 * opens is left alone, so running it again (after an interruption, or to catch a value written meanwhile) changes
 * nothing twice. Services given both keys read either meanwhile, so it runs while they work.
 */
export async function rotateSealedSecrets(db: Knex, keys: RotationKeys, { batchSize = 500 } = {}): Promise<ColumnRotation[]> {
  const rotations: ColumnRotation[] = [];
  for (const sealed of SEALED_COLUMNS) {
    const tally: ColumnRotation = { column: sealedColumnName(sealed), reencrypted: 0, alreadyNew: 0, unreadable: [] };
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
