import { readFileSync } from 'node:fs';
import { loadEnv, secretKeySchema, secretRotationEnvSchema } from '../../config/env';
import { createDatabase } from '../../db/knex';
import { createSecretBox } from '../../db/secret-box';
import { rotateSealedSecrets } from '../../db/secret-rotation';
import { CliError } from '../errors';
import { operatorCommand } from './operator-command';

function readKeyFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new CliError(`--new-key-file cannot be read: ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const parsed = secretKeySchema.safeParse(text);
  if (!parsed.success) throw new CliError(`--new-key-file ${parsed.error.issues[0]?.message ?? 'is not a key'}: ${path}`);
  return parsed.data;
}

function newKey(fromEnv: string | undefined, keyFile: string | undefined): string {
  if (fromEnv !== undefined && keyFile !== undefined) throw new CliError('give the new key once: NEW_SECRET_KEY or --new-key-file, not both');
  const key = keyFile === undefined ? fromEnv : readKeyFile(keyFile);
  if (key === undefined) throw new CliError('the new key is required: --new-key-file <path> or NEW_SECRET_KEY (openssl rand -hex 32)');
  return key;
}

/** `signalbox secrets rotate`: from SECRET_KEY (the key in use) to the new key; the services then restart with it. */
export const rotateSecrets = operatorCommand(async (io, { newKeyFile }: { newKeyFile?: string }) => {
  const env = loadEnv(secretRotationEnvSchema, io.env);
  const next = newKey(env.NEW_SECRET_KEY, newKeyFile);
  if (next.toLowerCase() === env.SECRET_KEY.toLowerCase()) throw new CliError('the new key is SECRET_KEY itself: generate another (openssl rand -hex 32)');
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: 1 });
  try {
    const rotations = await rotateSealedSecrets(db, { current: createSecretBox(env.SECRET_KEY), next: createSecretBox(next) });
    for (const { table, column, reencrypted, alreadyNew, unreadable } of rotations) {
      io.out(`${table}.${column}: ${reencrypted} re-encrypted, ${alreadyNew} already under the new key, ${unreadable.length} opened by neither key`);
    }
    const unreadable = rotations.filter((rotation) => rotation.unreadable.length > 0);
    if (unreadable.length > 0) {
      const rows = unreadable.map(({ table, unreadable: keys }) => `${table}: ${keys.join(', ')}`).join('; ');
      throw new CliError(`some values open with neither key and were left as they were (${rows}): is SECRET_KEY the key they were stored with?`);
    }
    io.out('Now restart the API and the worker with SECRET_KEY set to the new key.');
  } finally {
    await db.destroy();
  }
});
