import { existsSync } from 'node:fs';

/** Without the background-networking flags Chromium dials out, and this machine's closed network refuses it. */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** How the browser tests launch Chromium: Debian's (or `CHROMIUM_PATH`), headless; a machine without it fails the run, saying what to install. */
export function chromiumLaunch(): { executablePath: string; headless: true; args: string[] } {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return { executablePath, headless: true, args: ARGS };
}
