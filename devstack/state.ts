import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Kept in `.signalbox/dev-stack.json` so restarts reuse the same secrets (stored tokens stay readable). */
export interface DevStackState {
  adminToken: string;
  secretKey: string;
  ingestUrl?: string;
  /** The console account `npm start` prints (devstack/dev-sign-in.ts). */
  devSignIn?: { email: string; password: string; workspaceId: string };
}

export function stateFile(dataDir: string): string {
  return path.join(dataDir, 'dev-stack.json');
}

export function loadOrCreateState(dataDir: string): DevStackState {
  mkdirSync(dataDir, { recursive: true });
  const file = stateFile(dataDir);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevStackState;
  const state: DevStackState = { adminToken: `adm_${randomBytes(24).toString('base64url')}`, secretKey: randomBytes(32).toString('hex') };
  saveState(dataDir, state);
  return state;
}

export function saveState(dataDir: string, state: DevStackState): void {
  writeFileSync(stateFile(dataDir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
