import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { firstLoadBudget } from './first-load-budget';

const chunk = (fileName: string, kilobytes: number, links: { imports?: string[]; dynamicImports?: string[]; isEntry?: boolean } = {}) => ({
  type: 'chunk' as const,
  fileName,
  code: randomBytes(kilobytes * 500).toString('hex'),
  isEntry: links.isEntry ?? false,
  imports: links.imports ?? [],
  dynamicImports: links.dynamicImports ?? [],
});

const files = [
  chunk('index.js', 40, { isEntry: true, imports: ['react.js'], dynamicImports: ['SignIn.js', 'Ads.js'] }),
  chunk('react.js', 60),
  chunk('SignIn.js', 5, { imports: ['react.js'] }),
  chunk('Ads.js', 10, { imports: ['table.js'], dynamicImports: ['chart.js'] }),
  chunk('table.js', 30),
  chunk('chart.js', 80),
];
const bundle = Object.fromEntries(files.map((file) => [file.fileName, file]));
const gzipped = (...names: string[]) => names.reduce((sum, name) => sum + gzipSync(bundle[name]?.code as string, { level: 9 }).length, 0);
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function build(budgetBytes: number) {
  const plugin = firstLoadBudget(budgetBytes);
  const printed: string[] = [];
  (plugin.configResolved as (config: unknown) => void)({ logger: { info: (line: string) => printed.push(line) } });
  return { write: () => (plugin.writeBundle as (options: unknown, output: unknown) => void)({}, bundle), printed };
}

describe('first-load budget', () => {
  const shell = gzipped('index.js', 'react.js');
  const ads = gzipped('index.js', 'react.js', 'Ads.js', 'table.js');
  const signIn = gzipped('index.js', 'react.js', 'SignIn.js');

  it('counts the entry, the page and what both import statically, once each, but not what loads later', () => {
    const { write, printed } = build(ads + 1);
    write();
    expect(printed).toEqual([
      `\nFirst load per page, gzipped (budget ${kB(ads + 1)}; the shell every page shares: ${kB(shell)}):\n${kB(ads).padStart(11)}  Ads.js\n${kB(signIn).padStart(11)}  SignIn.js`,
    ]);
  });

  it('fails the build naming each page over the budget', () => {
    expect(build(signIn).write).toThrow(`first load over its budget of ${kB(signIn)} gzipped: Ads.js ${kB(ads)}`);
  });
});
