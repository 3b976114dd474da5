import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { passwordMatches } from '../api/services/accounts/passwords';
import type { DevStackState } from './state';

export interface DevSignIn {
  email: string;
  password: string;
  workspaceId: string;
}

const DEV_EMAIL = 'dev@signalbox.local';

async function admin<T>(ingestUrl: string, adminToken: string, method: string, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${ingestUrl}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
}

/**
 * The console sign-in `npm start` prints: a "Dev shop" workspace and its owner, made once through the operator API
 * (as `signalbox users create` would) and kept in dev-stack.json. A kept sign-in whose workspace is gone (a new
 * database) is made again.
 */
export async function ensureDevSignIn(ingestUrl: string, state: DevStackState): Promise<DevSignIn> {
  const kept = state.devSignIn;
  if (kept !== undefined) {
    const found = await fetch(`${ingestUrl}/admin/workspaces/${encodeURIComponent(kept.workspaceId)}`, { headers: { authorization: `Bearer ${state.adminToken}` } });
    if (found.status === 200) return kept;
  }
  const workspace = await admin<{ id: string }>(ingestUrl, state.adminToken, 'POST', '/admin/workspaces', { name: 'Dev shop' });
  // Hex: it can never contain the address's name part ("dev"), which passwords may not.
  const password = `sbx-${randomBytes(12).toString('hex')}`;
  const added = await admin<{ message?: string }>(ingestUrl, state.adminToken, 'POST', `/admin/workspaces/${workspace.body.id}/members`, { email: DEV_EMAIL, role: 'owner', name: 'Developer', password });
  if (added.status !== 201) throw new Error(`could not create the dev sign-in: ${added.body.message ?? added.status}`);
  return { email: DEV_EMAIL, password, workspaceId: workspace.body.id };
}

/** Whether the kept password still signs in: its owner may have changed it in the console (Your account). */
export async function devPasswordStillWorks(db: Knex, signIn: DevSignIn): Promise<boolean> {
  const row = (await db('users').where({ email: signIn.email }).first('password_hash')) as { password_hash: string } | undefined;
  return row !== undefined && passwordMatches(row.password_hash, signIn.password);
}

/** The console's sign-in line `npm start` prints: the password only while it is still the one that works. */
export function devSignInText(signIn: DevSignIn, passwordWorks: boolean): string {
  const how = passwordWorks
    ? `with password ${signIn.password}`
    : 'with the password you set in the console (the one first printed was changed; forgotten? "Forgot password?" mails a link to the outbox below)';
  return `sign in as ${signIn.email} ${how} (owner of "Dev shop", ${signIn.workspaceId})`;
}
