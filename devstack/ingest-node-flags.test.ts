import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INGEST_NODE_FLAGS } from './children';

describe("the ingest API's Node flags", () => {
  it("are the image's command too", () => {
    const containerfile = readFileSync(path.join(__dirname, '..', 'Containerfile'), 'utf8');
    const commands = containerfile.split('\n').filter((line) => line.startsWith('CMD '));
    const command = JSON.parse(commands.at(-1)!.slice('CMD '.length)) as string[];
    expect(command).toEqual(['node', ...INGEST_NODE_FLAGS, 'dist/api/server.js']);
  });
});
