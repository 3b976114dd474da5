import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { sha256Hex } from '../../domain/hashing';
import type { ApiKeyKind, ApiKeyRow } from '../types';
import { newId } from './ids';

export type { ApiKeyKind } from '../types';

export const SECRET_KEY_PREFIX = 'dk_';
/** Browser keys are public (they sit in a page's script tag); ingest accepts them only from allowed origins. */
export const BROWSER_KEY_PREFIX = 'pk_';

/** Public, write-only keys shipped inside mobile apps; their events are app events. */
export const APP_KEY_PREFIX = 'ak_';

export const API_KEY_PREFIXES: Readonly<Record<ApiKeyKind, string>> = { secret: SECRET_KEY_PREFIX, browser: BROWSER_KEY_PREFIX, app: APP_KEY_PREFIX };

export interface ApiKey {
  id: string;
  workspaceId: string;
  name: string;
  kind: ApiKeyKind;
  displayPrefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface CreatedApiKey extends ApiKey {
  /** The full key; shown once, never stored. */
  key: string;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    kind: row.kind,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Keys carry 192 random bits, so a fast hash is enough to store them safely. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** A browser key's latest accepted use. */
export interface BrowserKeyUse {
  keyName: string;
  origin: string;
  at: Date;
}

export function createApiKeyRepository(db: Knex) {
  return {
    async create(workspaceId: string, name: string, kind: ApiKeyKind = 'secret', executor: Knex = db): Promise<CreatedApiKey> {
      const prefix = API_KEY_PREFIXES[kind];
      const key = `${prefix}${randomBytes(24).toString('base64url')}`;
      const [row] = await executor('api_keys')
        .insert({
          id: newId('key'),
          workspace_id: workspaceId,
          name,
          kind,
          key_hash: hashApiKey(key),
          display_prefix: key.slice(0, prefix.length + 6),
        })
        .returning('*');
      return { ...toApiKey(row), key };
    },

    /** The active (not revoked) key with this plaintext value. */
    async findActive(key: string, executor: Knex = db): Promise<ApiKey | undefined> {
      const row = await executor('api_keys').where({ key_hash: hashApiKey(key) }).whereNull('revoked_at').first();
      return row && toApiKey(row);
    },

    /** Any key with this hash, revoked or not: says whose key a refused request carried. */
    async findAnyByHash(keyHash: string, executor: Knex = db): Promise<ApiKey | undefined> {
      const row = await executor('api_keys').where({ key_hash: keyHash }).first();
      return row && toApiKey(row);
    },

    async list(workspaceId: string, executor: Knex = db): Promise<ApiKey[]> {
      const rows = await executor('api_keys').where({ workspace_id: workspaceId }).orderBy('created_at');
      return rows.map(toApiKey);
    },

    /** Ingest accepted events sent with this key from a page of `origin`. */
    async recordUse(id: string, origin: string, at: Date, executor: Knex = db): Promise<void> {
      await executor('api_keys').where({ id }).update({ last_used_at: at, last_used_origin: origin });
    },

    /** The workspace's browser key used last, with the origin it was used from; undefined when none was used yet. */
    async lastBrowserUse(workspaceId: string, executor: Knex = db): Promise<BrowserKeyUse | undefined> {
      const row = await executor('api_keys')
        .where({ workspace_id: workspaceId, kind: 'browser' })
        .whereNotNull('last_used_at')
        .orderBy('last_used_at', 'desc')
        .first('name', 'last_used_origin', 'last_used_at');
      return row === undefined ? undefined : { keyName: row.name, origin: row.last_used_origin ?? '', at: row.last_used_at as Date };
    },

    /** Revokes the key; returns it, or undefined when the workspace has no such key. Idempotent. */
    async revoke(workspaceId: string, id: string, executor: Knex = db): Promise<ApiKey | undefined> {
      const [row] = await executor('api_keys')
        .where({ workspace_id: workspaceId, id })
        .update({ revoked_at: executor.raw('coalesce(revoked_at, now())') })
        .returning('*');
      return row && toApiKey(row);
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
