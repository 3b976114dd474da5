import type { Knex } from 'knex';

export function createOAuthStateRepository(db: Knex) {
  return {
    /**
     * Records that an OAuth `state` nonce completed an authorization. False when it already had: a state is single
     * use. Expired records are pruned on the way (a replayed expired state is refused by its expiry anyway).
     */
    async consume(nonce: string, workspaceId: string, expiresAt: Date, executor: Knex = db): Promise<boolean> {
      await executor('oauth_state_uses').where('expires_at', '<', executor.fn.now()).delete();
      const inserted = await executor('oauth_state_uses')
        .insert({ nonce, workspace_id: workspaceId, expires_at: expiresAt })
        .onConflict('nonce')
        .ignore()
        .returning('nonce');
      return inserted.length === 1;
    },
  };
}

export type OAuthStateRepository = ReturnType<typeof createOAuthStateRepository>;
