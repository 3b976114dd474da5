import type { Knex } from 'knex';

/**
 * A very large workspace splits its conversions among several group workflows (issue 21): `pipeline_partitions` of
 * them, each claiming the conversions whose ID hashes to it. Whether a workflow sleeps waiting for a wake-up is now
 * kept per partition; the TikTok backoff stays per workspace (`conversion_pipelines`). Frozen: imports no
 * application code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE workspaces ADD COLUMN pipeline_partitions smallint NOT NULL DEFAULT 1 CHECK (pipeline_partitions BETWEEN 1 AND 16)');
  await knex.schema.createTable('conversion_pipeline_partitions', (t) => {
    t.text('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.smallint('partition').notNullable();
    t.boolean('idle').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workspace_id', 'partition']);
  });
  await knex.raw('INSERT INTO conversion_pipeline_partitions (workspace_id, partition, idle, updated_at) SELECT workspace_id, 0, idle, updated_at FROM conversion_pipelines');
  // conversion_pipelines.idle is no longer read, but stays for this release: processes of the previous build, still
  // running during a rolling upgrade, use it (OPERATIONS.md "A release"). A later release drops it.
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    `UPDATE conversion_pipelines p SET idle = s.idle FROM conversion_pipeline_partitions s
     WHERE s.workspace_id = p.workspace_id AND s.partition = 0`,
  );
  await knex.schema.dropTable('conversion_pipeline_partitions');
  // Pending conversions last claimed by another partition's workflow go back to the workspace's one workflow.
  await knex.raw(
    `UPDATE conversions SET workflow_id = 'conversion-pipeline-' || workspace_id
     WHERE status = 'pending' AND starts_with(workflow_id, 'conversion-pipeline-' || workspace_id || '-partition-')`,
  );
  await knex.raw('ALTER TABLE workspaces DROP COLUMN pipeline_partitions');
}
