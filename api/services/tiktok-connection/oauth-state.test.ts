import { TikTokConnectionError } from './errors';
import { claimedActor, createOAuthStateSigner } from './oauth-state';
import { missingPermissions, normalizeScopes } from './permissions';

const KEY = 'ab'.repeat(32);
const now = new Date('2026-01-01T12:00:00Z');

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof TikTokConnectionError) return error.code;
    throw error;
  }
  return undefined;
}

describe('OAuth state', () => {
  const signer = createOAuthStateSigner(KEY);

  it('verifies its own state for the same workspace within 10 minutes', () => {
    const issued = signer.issue('ws_1', now);
    expect(issued.expiresAt.toISOString()).toBe('2026-01-01T12:10:00.000Z');
    expect(signer.verify(issued.state, 'ws_1', new Date(now.getTime() + 9 * 60_000))).toEqual({ workspaceId: 'ws_1', actor: 'operator', nonce: issued.nonce, expiresAt: issued.expiresAt });
  });

  it('carries who started the authorization, signed with the rest, for the change log', () => {
    const issued = signer.issue('ws_1', now, 'user:usr_1');
    expect(claimedActor(issued.state)).toBe('user:usr_1');
    expect(signer.verify(issued.state, 'ws_1', now).actor).toBe('user:usr_1');
    const [payload, signature] = issued.state.split('.') as [string, string];
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('user:usr_1', 'user:usr_2')).toString('base64url');
    expect(codeOf(() => signer.verify(`${forged}.${signature}`, 'ws_1', now))).toBe('state_invalid');
  });

  it('refuses an expired, tampered, foreign-key, malformed or other-workspace state', () => {
    const { state } = signer.issue('ws_1', now);
    expect(codeOf(() => signer.verify(state, 'ws_1', new Date(now.getTime() + 10 * 60_000)))).toBe('state_expired');
    const [payload, signature] = state.split('.') as [string, string];
    const forged = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('ws_1', 'ws_2')).toString('base64url');
    expect(codeOf(() => signer.verify(`${forged}.${signature}`, 'ws_2', now))).toBe('state_invalid');
    expect(codeOf(() => createOAuthStateSigner('cd'.repeat(32)).verify(state, 'ws_1', now))).toBe('state_invalid');
    expect(codeOf(() => signer.verify('garbage', 'ws_1', now))).toBe('state_invalid');
    expect(codeOf(() => signer.verify(state, 'ws_other', now))).toBe('state_workspace_mismatch');
  });

  it('accepts, during a rotation, a state signed under the key being retired; not one signed under any other', () => {
    const { state } = signer.issue('ws_1', now);
    const rotated = createOAuthStateSigner('cd'.repeat(32), { previousKeyHex: KEY });
    expect(rotated.verify(state, 'ws_1', now).workspaceId).toBe('ws_1');
    expect(codeOf(() => createOAuthStateSigner('cd'.repeat(32), { previousKeyHex: 'ef'.repeat(32) }).verify(state, 'ws_1', now))).toBe('state_invalid');
    // It signs under the new key only.
    expect(codeOf(() => signer.verify(rotated.issue('ws_1', now).state, 'ws_1', now))).toBe('state_invalid');
  });

  it('issues a different nonce every time', () => {
    expect(signer.issue('ws_1', now).nonce).not.toBe(signer.issue('ws_1', now).nonce);
  });
});

describe('permissions', () => {
  it('accepts first-level or specific permission IDs, including those above 2^53', () => {
    expect(missingPermissions(normalizeScopes([4, 5, 8]))).toEqual([]);
    expect(missingPermissions(normalizeScopes([44, '7224195155857866754', 800]))).toEqual([]);
  });

  it('names each missing permission', () => {
    expect(missingPermissions(normalizeScopes([4, 1, 2]))).toEqual(['send_conversion_events', 'access_pixel']);
    expect(missingPermissions([])).toEqual(['read_ad_performance', 'send_conversion_events', 'access_pixel']);
  });
});
