import { createSchemaErrorWatch, SCHEMA_ERRORS_PERSIST_MS } from './schema-errors';

describe("the watch on the database's refusals for the schema", () => {
  it('names the SQLSTATEs once refusals have kept coming for a few seconds, and none once they stop', () => {
    const clock = { now: 0 };
    const watch = createSchemaErrorWatch({ now: () => clock.now });
    watch.note('42P10');
    clock.now += SCHEMA_ERRORS_PERSIST_MS - 1;
    watch.note('42703');
    watch.note('23505'); // a unique violation: about the data, not the schema
    expect(watch.persisting()).toEqual([]);
    clock.now += 1;
    watch.note('42P10');
    expect(watch.persisting()).toEqual(['42703', '42P10']);
    clock.now += SCHEMA_ERRORS_PERSIST_MS + 1;
    expect(watch.persisting()).toEqual([]);
  });

  it('starts over after a pause longer than a few seconds', () => {
    const clock = { now: 0 };
    const watch = createSchemaErrorWatch({ now: () => clock.now });
    watch.note('42P01');
    clock.now += SCHEMA_ERRORS_PERSIST_MS + 1;
    watch.note('42P01');
    expect(watch.persisting()).toEqual([]);
    clock.now += SCHEMA_ERRORS_PERSIST_MS;
    watch.note('42P01');
    expect(watch.persisting()).toEqual(['42P01']);
  });
});
