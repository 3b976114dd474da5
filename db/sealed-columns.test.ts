import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SEALED_COLUMNS, sealedColumnName } from './sealed-columns';

const HEADING = '### What `SECRET_KEY` seals';

/** The rows of the first table under `heading` in OPERATIONS.md, as [first cell, second cell]. */
function documentedRows(heading: string): [string, string][] {
  const text = readFileSync(path.join(__dirname, '..', 'OPERATIONS.md'), 'utf8');
  const start = text.indexOf(`${heading}\n`);
  if (start === -1) throw new Error(`OPERATIONS.md has no "${heading}" section`);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const table = lines.slice(first, lines.findIndex((line, i) => i > first && !line.startsWith('|')));
  return table.slice(2).map((row) => row.split('|').slice(1, 3).map((cell) => cell.trim()) as [string, string]);
}

describe('the registry of sealed columns', () => {
  it('is what OPERATIONS.md lists as sealed with SECRET_KEY, column by column (the backup and rotation notes point there)', () => {
    expect(documentedRows(HEADING)).toEqual(SEALED_COLUMNS.map((sealed) => [`\`${sealedColumnName(sealed)}\``, sealed.holds]));
  });
});
