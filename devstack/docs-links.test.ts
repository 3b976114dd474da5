import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');

const SKIPPED = new Set(['node_modules', 'dist', 'test-artifacts', 'bench-profiles']);

/** Every document of the project: the README, docs/, the other top-level pages and each folder's README. */
function documents(folder = ''): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED.has(entry.name) ? [] : documents(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

/** The lines a renderer reads as text: fenced code blocks become empty lines, so line numbers stay true. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower-case, punctuation dropped (`_` and `-` kept), each space a '-'. */
function anchorOf(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a document's headings make; a repeated heading gets `-1`, `-2`, … as on GitHub. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(path.join(ROOT, file), 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const anchor = anchorOf(heading);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/** What is wrong with each relative link of `file` (`file:line: target: why`); links to other sites are not followed. */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  proseLines(readFileSync(path.join(ROOT, file), 'utf8')).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '``');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [linked, anchor] = target.split('#') as [string, string | undefined];
      const resolved = linked === '' ? file : path.normalize(path.join(path.dirname(file), decodeURI(linked)));
      const where = `${file}:${index + 1}: ${target}`;
      if (!existsSync(path.join(ROOT, resolved))) problems.push(`${where}: no file ${resolved}`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
        problems.push(`${where}: ${resolved} has no heading whose anchor is #${anchor}`);
      }
    }
  });
  return problems;
}

describe('links between the documents', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('What `SECRET_KEY` seals')).toBe('what-secret_key-seals');
    expect(anchorOf('Five minutes: from `npm start` to a conversion at the fake TikTok')).toBe('five-minutes-from-npm-start-to-a-conversion-at-the-fake-tiktok');
    expect(anchorOf("Segment's event names")).toBe('segments-event-names');
    expect(anchorOf('Recovery after a TikTok outage (issue 19)')).toBe('recovery-after-a-tiktok-outage-issue-19');
  });

  it('finds the README, the pages in docs/, the other top-level documents and the folders\' READMEs', () => {
    expect(documents()).toEqual(expect.arrayContaining(['README.md', 'OPERATIONS.md', 'docs/README.md', 'docs/console.md', 'api/README.md', 'devstack/tiktok-fake/README.md']));
  });

  it('has every relative link name a file that exists, and a heading of it when it names an anchor', () => {
    expect(documents().flatMap(brokenLinks)).toEqual([]);
  });
});
