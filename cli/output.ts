export type Cell = string | number | boolean | null | undefined | object;

export function cellText(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Columns padded to their widest cell, headers in capitals; `rightAligned` columns (figures) line up on the right. */
export function formatTable(headers: readonly string[], rows: readonly (readonly Cell[])[], options: { rightAligned?: readonly number[] } = {}): string {
  const texts = rows.map((row) => row.map(cellText));
  const widths = headers.map((header, column) => Math.max(header.length, ...texts.map((row) => (row[column] ?? '').length)));
  const right = new Set(options.rightAligned ?? []);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column] ?? 0) : column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers.map((header) => header.toUpperCase())), ...texts.map(line)].join('\n');
}

/** `label: value` lines with the labels aligned. */
export function formatRecord(entries: readonly (readonly [string, Cell])[]): string {
  const width = Math.max(...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `${`${label}:`.padEnd(width + 1)}  ${cellText(value)}`).join('\n');
}
