import type { Knex } from 'knex';
import type { MigrationStep } from '../migration-plan';

/**
 * Issue 43: no account is trusted for its address before its owner proves the mailbox. `users.email_confirmed_at` is
 * set when the address is proven (a mailed invitation or reset link used) or an operator vouches for it; accounts
 * made before this release are back-filled as confirmed (they predate the rule; OPERATIONS.md). `invitations.delivery`
 * says who held the link: `mail` (only the mailbox), `operator` (shown to the operator, who is trusted), `shown` (shown
 * to a console inviter because no mail server was set up). Earlier invitations were shown to whoever made them:
 * the operator's are back-filled `operator`, the console's `shown`. The index counts an inviter's recent invitations
 * (the rate limit). Frozen: imports no application code.
 */
export const steps: MigrationStep[] = [
  {
    does: 'users and invitations: add a column each, mark every existing account confirmed, index invitations by inviter',
    locks: 'ACCESS EXCLUSIVE on users and invitations, for an UPDATE of every user (a few rows)',
    waits: 'ingest and the pipeline never wait; a console sign-in waits an instant',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.timestamp('email_confirmed_at', { useTz: true }));
  await knex('users').update({ email_confirmed_at: knex.fn.now() });

  // The default is what the previous build's inserts get during a rolling upgrade: the most careful of the three.
  await knex.schema.alterTable('invitations', (t) => t.text('delivery').notNullable().defaultTo('shown'));
  await knex('invitations').where({ invited_by: 'operator' }).update({ delivery: 'operator' });
  await knex.raw("ALTER TABLE invitations ADD CONSTRAINT invitation_delivery CHECK (delivery IN ('mail','operator','shown'))");
  await knex.schema.alterTable('invitations', (t) => t.index(['invited_by', 'created_at']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropIndex(['invited_by', 'created_at']);
    t.dropColumn('delivery');
  });
  await knex.schema.alterTable('users', (t) => t.dropColumn('email_confirmed_at'));
}
