import { claimedWorkspaceId, createOAuthStateSigner } from './oauth-state';

describe('claimedWorkspaceId', () => {
  it('reads the workspace of a state the signer issued', () => {
    const { state } = createOAuthStateSigner('ab'.repeat(32)).issue('ws_fern');
    expect(claimedWorkspaceId(state)).toBe('ws_fern');
  });

  it('finds none in text that is not a state', () => {
    for (const text of ['', 'garbage', '.', 'bm90IGpzb24.sig', `${Buffer.from('{"w":7}').toString('base64url')}.sig`, `${Buffer.from('null').toString('base64url')}.sig`]) {
      expect(claimedWorkspaceId(text)).toBeUndefined();
    }
  });
});
