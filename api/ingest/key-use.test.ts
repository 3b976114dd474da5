import pino from 'pino';
import { createKeyUseLog } from './key-use';

/** The key table's two columns, as a fake repository keeps them; `failNext` makes the next write fail. */
function keyTable() {
  const rows = new Map<string, { at: Date; origin: string }>();
  const state = { failNext: false };
  return {
    rows,
    state,
    apiKeys: {
      recordUse: async (id: string, origin: string, at: Date) => {
        if (state.failNext) {
          state.failNext = false;
          throw new Error('connection lost');
        }
        rows.set(id, { at, origin });
      },
    },
  };
}

describe('the browser-key use log', () => {
  it('writes a key’s use at most once a minute, and the next use after a failed write is written', async () => {
    let clock = Date.parse('2026-11-26T12:00:00Z');
    const table = keyTable();
    const log = createKeyUseLog({ apiKeys: table.apiKeys, log: pino({ level: 'silent' }), now: () => clock });

    log.used('key_a', 'https://fern.example');
    log.used('key_b', 'https://tea.example');
    clock += 59_000;
    log.used('key_a', 'https://www.fern.example');
    await log.drain();
    expect(table.rows.get('key_a')).toEqual({ at: new Date('2026-11-26T12:00:00Z'), origin: 'https://fern.example' });
    expect(table.rows.get('key_b')?.origin).toBe('https://tea.example');

    clock += 1_000;
    table.state.failNext = true;
    log.used('key_a', 'https://www.fern.example');
    await log.drain();
    clock += 1_000;
    log.used('key_a', 'https://www.fern.example');
    await log.drain();
    expect(table.rows.get('key_a')).toEqual({ at: new Date('2026-11-26T12:01:01Z'), origin: 'https://www.fern.example' });
  });
});
