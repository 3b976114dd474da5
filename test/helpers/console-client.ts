import type { FastifyInstance, InjectOptions } from 'fastify';
import { TEST_ADMIN_TOKEN } from './test-app';

/** A strong password for test accounts. */
export const TEST_PASSWORD = 'correct horse battery staple';

export interface Person {
  email: string;
  userId: string;
  cookie: string;
  csrfToken: string;
}

type Method = InjectOptions['method'];

/** The admin API, as an operator or a script calls it. */
export function adminCall(app: FastifyInstance, method: Method, url: string, payload?: unknown) {
  return app.inject({ method, url, payload: payload as InjectOptions['payload'], headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
}

export async function createWorkspace(app: FastifyInstance, name: string): Promise<string> {
  return (await adminCall(app, 'POST', '/admin/workspaces', { name })).json().id;
}

/** The `sbx_session` cookie of a sign-in answer, as a `Cookie` header value. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const header = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('sbx_session='));
  if (header === undefined) throw new Error('no sbx_session cookie was set');
  return header.split(';')[0] as string;
}

export async function signIn(app: FastifyInstance, email: string, password = TEST_PASSWORD, remoteAddress = '127.0.0.1'): Promise<Person> {
  const answer = await app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, remoteAddress });
  if (answer.statusCode !== 200) throw new Error(`sign-in failed: ${answer.statusCode} ${answer.body}`);
  const body = answer.json();
  return { email, userId: body.user.id, cookie: sessionCookieOf(answer.headers['set-cookie']), csrfToken: body.csrfToken };
}

/** Creates the account through the operator API with `role` in the workspace, then signs in. */
export async function personIn(app: FastifyInstance, workspaceId: string, email: string, role: 'owner' | 'editor' | 'viewer'): Promise<Person> {
  const added = await adminCall(app, 'POST', `/admin/workspaces/${workspaceId}/members`, { email, role, password: TEST_PASSWORD });
  if (added.statusCode !== 201) throw new Error(`could not add ${email}: ${added.body}`);
  return signIn(app, email);
}

/** The console API as the SPA calls it: session cookie, and the CSRF token on writes. */
export function asPerson(app: FastifyInstance, person: Person) {
  return (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url: url.startsWith('/') ? url : `/console/api/${url}`,
      payload: payload as InjectOptions['payload'],
      headers: { cookie: person.cookie, 'x-csrf-token': person.csrfToken, ...headers },
    });
}
