import type { Knex } from 'knex';

/**
 * Issue 31, words not codes: the pixel's name as TikTok listed it when it was chosen (the console names the pixel
 * by it), and for each refused ingest request the page origin it came from and the refusal's reason (the event
 * debugger says what to fix in words). Nullable columns: no table is rewritten. Frozen: imports no application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tiktok_connections', (t) => t.text('pixel_name'));
  await knex.schema.alterTable('ingest_refusals', (t) => {
    t.text('origin');
    t.text('reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ingest_refusals', (t) => t.dropColumns('origin', 'reason'));
  await knex.schema.alterTable('tiktok_connections', (t) => t.dropColumn('pixel_name'));
}
