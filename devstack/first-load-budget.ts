/// <reference types="node" />
import { gzipSync } from 'node:zlib';
import type { Logger, Plugin } from 'vite' with { 'resolution-mode': 'import' };

/** What a browser downloads before it shows a page: the entry, the page's own chunk, and what both import statically. */
interface Chunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string> };
}
interface Asset {
  type: 'asset';
  fileName: string;
  source: string | Uint8Array;
}
type Bundle = Record<string, Chunk | Asset>;

const gzipped = (content: string | Uint8Array) => gzipSync(content, { level: 9 }).length;

function staticClosure(bundle: Bundle, fileName: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (into.has(fileName) || chunk?.type !== 'chunk') return into;
  into.add(fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
  for (const imported of chunk.imports) staticClosure(bundle, imported, into);
  return into;
}

/**
 * Prints each page's first load (gzipped JavaScript and CSS) after a build, and fails the build when one passes
 * `budgetBytes`: so a change that pulls a heavy library into every page is caught by every build, CI's included.
 */
export function firstLoadBudget(budgetBytes: number): Plugin {
  let logger: Logger | undefined;
  return {
    name: 'signalbox-first-load-budget',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    writeBundle(_options, output) {
      const bundle = output as unknown as Bundle;
      const entry = Object.values(bundle).find((file): file is Chunk => file.type === 'chunk' && file.isEntry);
      if (entry === undefined) throw new Error('first-load budget: the build has no entry chunk');
      const size = (fileName: string) => {
        const file = bundle[fileName];
        return file === undefined ? 0 : gzipped(file.type === 'chunk' ? file.code : file.source);
      };
      const shell = staticClosure(bundle, entry.fileName);
      const pages = entry.dynamicImports.map((page) => {
        const files = staticClosure(bundle, page, new Set(shell));
        return { page, bytes: [...files].reduce((sum, fileName) => sum + size(fileName), 0) };
      });
      pages.sort((a, b) => b.bytes - a.bytes);
      const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
      const shellBytes = [...shell].reduce((sum, fileName) => sum + size(fileName), 0);
      const lines = pages.map(({ page, bytes }) => `  ${kB(bytes).padStart(9)}  ${page}`);
      logger?.info(`\nFirst load per page, gzipped (budget ${kB(budgetBytes)}; the shell every page shares: ${kB(shellBytes)}):\n${lines.join('\n')}`);
      const over = pages.filter(({ bytes }) => bytes > budgetBytes);
      if (over.length > 0) throw new Error(`first load over its budget of ${kB(budgetBytes)} gzipped: ${over.map(({ page, bytes }) => `${page} ${kB(bytes)}`).join(', ')}`);
    },
  };
}
