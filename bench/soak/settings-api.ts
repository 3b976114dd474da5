/** A call to the settings API (`/admin`, the CLI's API) with the operator token; a non-2xx answer throws with its body. */
export type SettingsApi = <T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) => Promise<T>;

export function settingsApi(baseUrl: string, adminToken: string): SettingsApi {
  return async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /admin${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}
