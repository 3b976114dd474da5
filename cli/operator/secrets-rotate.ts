import { loadEnv, secretRotationEnvSchema } from '../../config/env';
import { createDatabase } from '../../db/knex';
import { createSecretBox } from '../../db/secret-box';
import { rotateSealedSecrets } from '../../db/secret-rotation';
import { CliError } from '../errors';
import { operatorCommand } from './operator-command';

/**
 * `signalbox secrets rotate`: re-seals under SECRET_KEY (the new key) every sealed value SECRET_KEY_PREVIOUS (the key
 * being retired) opens. Run with the services' environment once every API process and worker runs with both keys:
 * they read either meanwhile, so nothing stops.
 */
export const rotateSecrets = operatorCommand(async (io) => {
  const env = loadEnv(secretRotationEnvSchema, io.env);
  const db = createDatabase({ url: env.DATABASE_URL, poolMax: 1 });
  try {
    const rotations = await rotateSealedSecrets(db, { from: createSecretBox(env.SECRET_KEY_PREVIOUS), to: createSecretBox(env.SECRET_KEY) });
    for (const { column, reencrypted, alreadyNew, unreadable } of rotations) {
      io.out(`${column}: ${reencrypted} re-encrypted, ${alreadyNew} already under SECRET_KEY, ${unreadable.length} opened by neither key`);
    }
    const unreadable = rotations.filter((rotation) => rotation.unreadable.length > 0);
    if (unreadable.length > 0) {
      const rows = unreadable.map(({ column, unreadable: keys }) => `${column}: ${keys.join(', ')}`).join('; ');
      throw new CliError(`some values open with neither key and were left as they were (${rows}): is SECRET_KEY_PREVIOUS the key they were stored with?`);
    }
    io.out('Every sealed value opens with SECRET_KEY now: remove SECRET_KEY_PREVIOUS from the services, restarting them one at a time.');
  } finally {
    await db.destroy();
  }
});
