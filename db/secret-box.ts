import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealedColumnName } from './sealed-columns';

const VERSION = 'v1';

/**
 * What a sealed value looks like, `v1.<IV>.<tag>.<ciphertext>` in base64url (12-byte IV, 16-byte tag), as a regular
 * expression both JavaScript and PostgreSQL read: tests search databases with it for sealed values.
 */
export const SEALED_VALUE_PATTERN = `${VERSION}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.`;

/** A stored value that no key given opens: sealed under another key, or altered. */
export class SealedSecretError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SealedSecretError';
  }
}

function aesKey(hex: string, variable: string): Buffer {
  const key = Buffer.from(hex, 'hex');
  if (key.length !== 32) throw new Error(`${variable} must be 32 bytes given as 64 hex characters`);
  return key;
}

function openWith(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('not a sealed value: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * AES-256-GCM for secrets at rest, in the columns of db/sealed-columns.ts. `secretKeyHex` is the 64-hex `SECRET_KEY`:
 * it seals, and opens first. `previousKeyHex` (`SECRET_KEY_PREVIOUS`, during a rotation) only opens, so that values
 * not yet re-sealed stay readable while `signalbox secrets rotate` runs.
 */
export function createSecretBox(secretKeyHex: string, previousKeyHex?: string) {
  const key = aesKey(secretKeyHex, 'SECRET_KEY');
  const keys = previousKeyHex === undefined ? [key] : [key, aesKey(previousKeyHex, 'SECRET_KEY_PREVIOUS')];
  const keyNames = previousKeyHex === undefined ? 'SECRET_KEY' : 'either SECRET_KEY or SECRET_KEY_PREVIOUS';

  return {
    /** `column` names where the value goes: only a column of the registry can hold a sealed value. */
    seal(_column: SealedColumnName, plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    /** Throws SealedSecretError naming the column when no key opens the value. */
    open(column: SealedColumnName, sealed: string): string {
      let failure: unknown;
      for (const candidate of keys) {
        try {
          return openWith(candidate, sealed);
        } catch (error) {
          failure ??= error;
        }
      }
      throw new SealedSecretError(
        `${column}: the stored value does not open with ${keyNames}: it was sealed under another key (during a rotation, give the services the key it was sealed with as SECRET_KEY_PREVIOUS)`,
        { cause: failure },
      );
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
