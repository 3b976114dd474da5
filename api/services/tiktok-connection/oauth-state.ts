import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { TikTokConnectionError } from './errors';

/** Long enough to log in to TikTok and approve; short enough that a leaked URL soon stops working. */
export const OAUTH_STATE_LIFETIME_MS = 10 * 60_000;

export interface IssuedState {
  state: string;
  nonce: string;
  expiresAt: Date;
}

export interface VerifiedState {
  workspaceId: string;
  /** What the authorization was asked for, signed with the rest (Shopify: the shop's domain); absent when none was given. */
  subject?: string;
  /** Who started the authorization (`operator` or `user:<id>`), for the change log. */
  actor: string;
  nonce: string;
  expiresAt: Date;
}

interface StatePayload {
  v: 1;
  w: string;
  n: string;
  /** Expiry, Unix milliseconds. */
  e: number;
  /** Actor who started it; absent in states issued before it was added (the operator). */
  a?: string;
  /** The subject the authorization was asked for (Shopify: the shop). */
  s?: string;
}

/** Why a state was refused, for the connection whose error class the caller's service answers with. */
export type StateRefusal = 'state_invalid' | 'state_expired' | 'state_workspace_mismatch';

function decodePayload(encoded: string): Partial<StatePayload> | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null ? (payload as Partial<StatePayload>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The workspace a `state` names, read WITHOUT checking it: TikTok's redirect to the callback carries no workspace,
 * so this only chooses which workspace to complete; `verify` then checks the signature (which covers the workspace),
 * the expiry, and the caller single use.
 */
export function claimedWorkspaceId(state: string): string | undefined {
  const workspaceId = decodePayload(state.split('.')[0] ?? '')?.w;
  return typeof workspaceId === 'string' && workspaceId !== '' ? workspaceId : undefined;
}

/** Who started the authorization a `state` names, read WITHOUT checking it (only to word or route the answer). */
export function claimedActor(state: string): string | undefined {
  const actor = decodePayload(state.split('.')[0] ?? '')?.a;
  return typeof actor === 'string' ? actor : undefined;
}

/**
 * The OAuth `state`: workspace ID, expiry and a nonce, signed with HMAC-SHA256 under a key derived from SECRET_KEY by
 * HKDF (the AES key that seals tokens is never used for anything else), one key per `platform`, so that a state
 * issued for one platform's authorization is refused by another's. Refusals are thrown as `refuse` makes them
 * (TikTokConnectionError unless the caller's service has its own). During a key rotation a state signed under
 * SECRET_KEY_PREVIOUS (`previousKeyHex`) is accepted too, so an authorization begun before a restart still completes.
 * Single use is enforced by the caller, which stores spent nonces.
 */
export function createOAuthStateSigner(
  secretKeyHex: string,
  {
    previousKeyHex,
    lifetimeMs = OAUTH_STATE_LIFETIME_MS,
    platform = 'tiktok',
    refuse = (code, message) => new TikTokConnectionError(code, message),
  }: { previousKeyHex?: string; lifetimeMs?: number; platform?: 'tiktok' | 'shopify'; refuse?: (code: StateRefusal, message: string) => Error } = {},
) {
  const signer = (hex: string) => {
    const secret = Buffer.from(hex, 'hex');
    if (secret.length !== 32) throw new Error('SECRET_KEY must be 32 bytes given as 64 hex characters');
    const key = Buffer.from(hkdfSync('sha256', secret, 'signalbox', `${platform}-oauth-state-v1`, 32));
    return (encoded: string) => createHmac('sha256', key).update(encoded).digest();
  };
  const sign = signer(secretKeyHex);
  const signers = previousKeyHex === undefined ? [sign] : [sign, signer(previousKeyHex)];
  const signedByAny = (encoded: string, given: Buffer) =>
    signers.some((candidate) => {
      const expected = candidate(encoded);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });

  return {
    issue(workspaceId: string, now: Date = new Date(), actor = 'operator', subject?: string): IssuedState {
      const payload: StatePayload = { v: 1, w: workspaceId, n: randomBytes(16).toString('base64url'), e: now.getTime() + lifetimeMs, a: actor, ...(subject === undefined ? {} : { s: subject }) };
      const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return { state: `${encoded}.${sign(encoded).toString('base64url')}`, nonce: payload.n, expiresAt: new Date(payload.e) };
    },

    /** Throws (through `refuse`) `state_invalid` (malformed or tampered), `state_expired` or `state_workspace_mismatch`. */
    verify(state: string, workspaceId: string, now: Date = new Date()): VerifiedState {
      const [encoded, signature, extra] = state.split('.');
      if (encoded === undefined || signature === undefined || extra !== undefined) {
        throw refuse('state_invalid', 'state: not a state Signalbox issued (malformed)');
      }
      if (!signedByAny(encoded, Buffer.from(signature, 'base64url'))) {
        throw refuse('state_invalid', 'state: the signature does not match (tampered, or issued with another SECRET_KEY)');
      }
      const payload = decodePayload(encoded) as StatePayload;
      if (payload.e <= now.getTime()) {
        throw refuse('state_expired', `state: expired at ${new Date(payload.e).toISOString()}; start the connection again`);
      }
      if (payload.w !== workspaceId) {
        throw refuse('state_workspace_mismatch', 'state: it was issued for another workspace');
      }
      const subject = typeof payload.s === 'string' ? { subject: payload.s } : {};
      return { workspaceId: payload.w, actor: typeof payload.a === 'string' ? payload.a : 'operator', nonce: payload.n, expiresAt: new Date(payload.e), ...subject };
    },
  };
}

export type OAuthStateSigner = ReturnType<typeof createOAuthStateSigner>;
