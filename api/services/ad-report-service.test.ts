import { exportWindows } from './ad-report-service';

const byDay = (from: string, to: string) => ({ from, to, granularity: 'day' as const });

describe('exportWindows', () => {
  it('splits 90 days of 200 ads into two windows of 45 days, each under a page of 10,000 rows', () => {
    expect(exportWindows(byDay('2026-08-29', '2026-11-26'), 200)).toEqual([
      ['2026-08-29', '2026-10-12'],
      ['2026-10-13', '2026-11-26'],
    ]);
  });

  it('reads a small export in one window, and totals in one whatever their size', () => {
    expect(exportWindows(byDay('2026-01-01', '2026-12-31'), 10)).toEqual([['2026-01-01', '2026-12-31']]);
    expect(exportWindows({ ...byDay('2026-01-01', '2026-12-31'), granularity: 'total' }, 100_000)).toEqual([['2026-01-01', '2026-12-31']]);
  });

  it('covers every day once, in order, with windows of at most a page, for a year of 1,000 ads', () => {
    const windows = exportWindows(byDay('2025-12-01', '2026-11-30'), 1_000);
    const days = windows.flatMap(([from, to]) => {
      const list: string[] = [];
      for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) list.push(new Date(at).toISOString().slice(0, 10));
      return list;
    });
    expect(days).toHaveLength(365);
    expect(new Set(days).size).toBe(365);
    expect([days[0], days.at(-1)]).toEqual(['2025-12-01', '2026-11-30']);
    expect(Math.max(...windows.map(([from, to]) => ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1) * 1_000))).toBeLessThanOrEqual(10_000);
  });

  it('counts an advertiser whose entities are not named yet as one row a day, and a single day as one window', () => {
    expect(exportWindows(byDay('2026-01-01', '2026-03-31'), 0)).toEqual([['2026-01-01', '2026-03-31']]);
    expect(exportWindows(byDay('2026-05-05', '2026-05-05'), 50_000)).toEqual([['2026-05-05', '2026-05-05']]);
  });
});
