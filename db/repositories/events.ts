import type { Knex } from 'knex';

export function createEventRepository(db: Knex) {
  return {
    async count(workspaceId: string, executor: Knex = db): Promise<number> {
      const [{ count }] = await executor('events').where({ workspace_id: workspaceId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
