/** The console's JSON API: same-origin cookie session, the CSRF token on writes, errors with their field messages. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: string[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** `value.amount must be a positive number` → `{ 'value.amount': 'must be a positive number' }`, for messages beside fields. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const issue of this.issues) {
      const space = issue.indexOf(' ');
      if (space > 0) errors[issue.slice(0, space)] ??= issue.slice(space + 1);
    }
    return errors;
  }
}

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

/** Where the sign-in page sends the person back to. */
export function signInUrl(next = window.location.pathname + window.location.search): string {
  return `/console/sign-in?next=${encodeURIComponent(next)}`;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/console/api/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await response.text();
  const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (response.ok) return parsed as T;
  const error = (parsed ?? {}) as { error?: string; message?: string; issues?: string[]; details?: Record<string, unknown> };
  const code = error.error ?? 'http_error';
  if (response.status === 401 && (code === 'session_required' || code === 'session_expired') && !window.location.pathname.startsWith('/console/sign-in')) {
    window.location.assign(signInUrl());
  }
  throw new ApiError(response.status, code, error.message ?? `HTTP ${response.status}`, error.issues, error.details);
}

export const get = <T>(path: string) => api<T>('GET', path);
