import type { Connection } from './connection';
import { ApiError, CliError } from './errors';

export interface RequestOptions {
  body?: unknown;
  /** A body sent as it is, not as JSON (a file). */
  file?: { contentType: string; body: string };
  query?: Record<string, string | number | undefined>;
  /** `/admin` routes need the admin token; health checks do not. */
  admin?: boolean;
}

function networkProblem(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause;
  return cause?.message ?? (error as Error).message;
}

/** A thin client over the settings API; non-2xx answers become ApiError with the server's message. */
export function createApiClient(connection: Connection, fetchImpl: typeof fetch = fetch) {
  return async function request<T>(method: string, path: string, { body, file, query, admin = true }: RequestOptions = {}): Promise<T> {
    const url = new URL(path, connection.url);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (admin) {
      if (connection.adminToken === undefined) {
        throw new CliError(`no admin token for ${connection.url} (from ${connection.source}): pass --token or set SIGNALBOX_ADMIN_TOKEN`);
      }
      headers.authorization = `Bearer ${connection.adminToken}`;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (file !== undefined) headers['content-type'] = file.contentType;

    let response: Response;
    try {
      response = await fetchImpl(url, { method, headers, body: file?.body ?? (body === undefined ? undefined : JSON.stringify(body)) });
    } catch (error) {
      throw new CliError(`cannot reach Signalbox at ${connection.url} (from ${connection.source}): ${networkProblem(error)}`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError(response.status, 'invalid_response', `HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (!response.ok) {
      const error = (parsed ?? {}) as { error?: string; message?: string; issues?: string[] };
      throw new ApiError(response.status, error.error ?? 'http_error', error.message ?? `HTTP ${response.status}`, error.issues);
    }
    return parsed as T;
  };
}

export type ApiRequest = ReturnType<typeof createApiClient>;
