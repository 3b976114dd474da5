import { ConfigError, ingestEnvSchema, loadEnv, secretRotationEnvSchema, workerEnvSchema } from './env';

const valid = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/signalbox',
  ADMIN_TOKEN: 'a'.repeat(24),
  SECRET_KEY: 'ab'.repeat(32),
  PUBLIC_URL: 'https://signalbox.shop.example',
};

describe('loadEnv', () => {
  it('applies defaults', () => {
    const env = loadEnv(ingestEnvSchema, valid);
    expect(env.PORT).toBe(8080);
    expect(env.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(env.TEMPORAL_NAMESPACE).toBe('default');
  });

  it.each([
    ['API', ingestEnvSchema],
    ['worker', workerEnvSchema],
  ] as const)('the %s refuses internal webhook addresses unless told to allow them', (_process, schema) => {
    expect(loadEnv(schema, valid).ALERT_WEBHOOK_INTERNAL_ADDRESSES).toBe('refuse');
    expect(loadEnv(schema, { ...valid, ALERT_WEBHOOK_INTERNAL_ADDRESSES: 'allow' }).ALERT_WEBHOOK_INTERNAL_ADDRESSES).toBe('allow');
    expect(() => loadEnv(schema, { ...valid, ALERT_WEBHOOK_INTERNAL_ADDRESSES: 'deny' })).toThrow('ALERT_WEBHOOK_INTERNAL_ADDRESSES must be allow or refuse');
  });

  it("gives the tag TikTok's pixel library unless TIKTOK_PIXEL_URL names another, and refuses one that is not http(s)", () => {
    expect(loadEnv(ingestEnvSchema, valid).TIKTOK_PIXEL_URL).toBe('https://analytics.tiktok.com/i18n/pixel/events.js');
    expect(loadEnv(ingestEnvSchema, { ...valid, TIKTOK_PIXEL_URL: 'http://127.0.0.1:9099/i18n/pixel/events.js' }).TIKTOK_PIXEL_URL).toBe('http://127.0.0.1:9099/i18n/pixel/events.js');
    for (const wrong of ['ftp://cdn.example/events.js', 'events.js']) {
      expect(() => loadEnv(ingestEnvSchema, { ...valid, TIKTOK_PIXEL_URL: wrong })).toThrow(
        "TIKTOK_PIXEL_URL must be an http(s) URL of TikTok's pixel library, e.g. https://analytics.tiktok.com/i18n/pixel/events.js",
      );
    }
  });

  it('reads the mail server and sender, and names a malformed one', () => {
    expect(loadEnv(workerEnvSchema, valid)).toMatchObject({ MAIL_FROM: 'Signalbox <signalbox@localhost>' });
    expect(loadEnv(workerEnvSchema, valid).SMTP_URL).toBeUndefined();
    expect(loadEnv(ingestEnvSchema, { ...valid, SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'alerts@shop.example' })).toMatchObject({ SMTP_URL: 'smtps://u:p@mail.example:465', MAIL_FROM: 'alerts@shop.example' });
    expect(() => loadEnv(ingestEnvSchema, { ...valid, SMTP_URL: 'mail.example:25', MAIL_FROM: 'nobody' })).toThrow(
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example:587; MAIL_FROM must be an address, e.g. alerts@shop.example or "Signalbox <alerts@shop.example>"',
    );
  });

  it('reads the public URL links are built from, as an origin, and refuses one that is not https, or has a path', () => {
    expect(loadEnv(ingestEnvSchema, { ...valid, PUBLIC_URL: 'https://Signalbox.Shop.example:8443/' }).PUBLIC_URL).toBe('https://signalbox.shop.example:8443');
    expect(loadEnv(ingestEnvSchema, { ...valid, PUBLIC_URL: 'http://127.0.0.1:8080' }).PUBLIC_URL).toBe('http://127.0.0.1:8080');
    const { PUBLIC_URL: _omitted, ...withoutIt } = valid;
    expect(() => loadEnv(ingestEnvSchema, withoutIt)).toThrow(/PUBLIC_URL is required: the https:\/\/ address people reach this API at/);
    for (const bad of ['http://signalbox.shop.example', 'https://signalbox.shop.example/console', 'https://signalbox.shop.example?x=1', 'https://user:pw@signalbox.shop.example', 'signalbox.shop.example', 'ftp://signalbox.shop.example']) {
      expect(() => loadEnv(ingestEnvSchema, { ...valid, PUBLIC_URL: bad })).toThrow(/PUBLIC_URL must be the https:\/\/ address people reach this API at, without a path/);
    }
  });

  it("requires the worker's public URL too: the links in its alerts are built from it", () => {
    expect(loadEnv(workerEnvSchema, { ...valid, PUBLIC_URL: 'https://signalbox.shop.example/' }).PUBLIC_URL).toBe('https://signalbox.shop.example');
    const { PUBLIC_URL: _omitted, ...withoutIt } = valid;
    expect(() => loadEnv(workerEnvSchema, withoutIt)).toThrow(/PUBLIC_URL is required/);
    expect(() => loadEnv(workerEnvSchema, { ...valid, PUBLIC_URL: 'http://signalbox.shop.example' })).toThrow(/PUBLIC_URL must be the https:\/\/ address/);
  });

  it('names a missing variable', () => {
    const { DATABASE_URL: _omitted, ...rest } = valid;
    expect(() => loadEnv(ingestEnvSchema, rest)).toThrow(/DATABASE_URL is required/);
  });

  it('names every malformed variable at once', () => {
    const attempt = () => loadEnv(ingestEnvSchema, { ...valid, PORT: 'eighty', SECRET_KEY: 'short' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT .*; SECRET_KEY must be 64 hex characters/);
  });

  it('reads the key being retired during a rotation, and refuses SECRET_KEY itself as that key', () => {
    expect(loadEnv(ingestEnvSchema, valid).SECRET_KEY_PREVIOUS).toBeUndefined();
    expect(loadEnv(workerEnvSchema, { ...valid, SECRET_KEY_PREVIOUS: 'cd'.repeat(32) }).SECRET_KEY_PREVIOUS).toBe('cd'.repeat(32));
    for (const schema of [ingestEnvSchema, workerEnvSchema]) {
      expect(() => loadEnv(schema, { ...valid, SECRET_KEY_PREVIOUS: valid.SECRET_KEY.toUpperCase() })).toThrow(
        'Invalid configuration: SECRET_KEY_PREVIOUS is SECRET_KEY itself: it must be the key being retired',
      );
      expect(() => loadEnv(schema, { ...valid, SECRET_KEY_PREVIOUS: 'old' })).toThrow('SECRET_KEY_PREVIOUS must be 64 hex characters (openssl rand -hex 32)');
    }
  });

  it('reads which proxies to trust, and names a malformed entry', () => {
    expect(loadEnv(ingestEnvSchema, valid).TRUST_PROXY).toBe(false);
    expect(loadEnv(ingestEnvSchema, { ...valid, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadEnv(ingestEnvSchema, { ...valid, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv(ingestEnvSchema, { ...valid, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadEnv(ingestEnvSchema, { ...valid, TRUST_PROXY: '10.0.0.0/8,loadbalancer' })).toThrow(/TRUST_PROXY must be true, false, .*"loadbalancer" is none of these/);
  });

  it('rejects a TikTok URL that is not a URL', () => {
    expect(() => loadEnv(workerEnvSchema, { ...valid, TIKTOK_API_URL: 'business-api' })).toThrow(/TIKTOK_API_URL must be an http\(s\) URL/);
  });

  it('sizes the database pool per process: 10 unless set, from 1 to 1000', () => {
    expect(loadEnv(ingestEnvSchema, valid).DATABASE_POOL_MAX).toBe(10);
    expect(loadEnv(workerEnvSchema, { ...valid, DATABASE_POOL_MAX: '40' }).DATABASE_POOL_MAX).toBe(40);
    for (const bad of ['0', '1001', '2.5', 'ten']) {
      expect(() => loadEnv(workerEnvSchema, { ...valid, DATABASE_POOL_MAX: bad })).toThrow(/DATABASE_POOL_MAX must be a whole number of connections from 1 to 1000/);
    }
  });

  it("reads Temporal's TLS settings and names a server name that is no DNS name", () => {
    const env = loadEnv(workerEnvSchema, { ...valid, TEMPORAL_TLS_CA_PATH: '/etc/temporal/ca.pem', TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' });
    expect(env).toMatchObject({ TEMPORAL_TLS_CA_PATH: '/etc/temporal/ca.pem', TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' });
    expect(() => loadEnv(ingestEnvSchema, { ...valid, TEMPORAL_TLS_SERVER_NAME: 'https://temporal.internal' })).toThrow(/TEMPORAL_TLS_SERVER_NAME must be a DNS name/);
  });

  it("bounds the worker's shutdown: 15 s unless set, from 1 s to 10 minutes", () => {
    expect(loadEnv(workerEnvSchema, valid).WORKER_SHUTDOWN_GRACE_MS).toBe(15_000);
    expect(loadEnv(workerEnvSchema, { ...valid, WORKER_SHUTDOWN_GRACE_MS: '25000' }).WORKER_SHUTDOWN_GRACE_MS).toBe(25_000);
    expect(() => loadEnv(workerEnvSchema, { ...valid, WORKER_SHUTDOWN_GRACE_MS: '500' })).toThrow('WORKER_SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 1000 to 600000');
  });

  it("reads the worker's health server address: off unless a port is given", () => {
    const worker = { DATABASE_URL: valid.DATABASE_URL, SECRET_KEY: valid.SECRET_KEY, PUBLIC_URL: valid.PUBLIC_URL };
    const defaults = loadEnv(workerEnvSchema, worker);
    expect(defaults.WORKER_HEALTH_PORT).toBeUndefined();
    expect(defaults).toMatchObject({ WORKER_HEALTH_HOST: '0.0.0.0', READINESS_TIMEOUT_MS: 2_000 });
    expect(loadEnv(workerEnvSchema, { ...worker, WORKER_HEALTH_PORT: '9464', WORKER_HEALTH_HOST: '127.0.0.1' })).toMatchObject({ WORKER_HEALTH_PORT: 9464, WORKER_HEALTH_HOST: '127.0.0.1' });
    expect(() => loadEnv(workerEnvSchema, { ...worker, WORKER_HEALTH_PORT: '70000' })).toThrow(/WORKER_HEALTH_PORT must be a port number from 1 to 65535/);
  });

  describe('an empty variable counts as unset', () => {
    it.each([
      ['API', ingestEnvSchema],
      ['worker', workerEnvSchema],
    ] as const)('the %s starts with SECRET_KEY_PREVIOUS set to nothing, or to blanks', (_process, schema) => {
      expect(loadEnv(schema, { ...valid, SECRET_KEY_PREVIOUS: '' }).SECRET_KEY_PREVIOUS).toBeUndefined();
      expect(loadEnv(schema, { ...valid, SECRET_KEY_PREVIOUS: '  ' }).SECRET_KEY_PREVIOUS).toBeUndefined();
    });

    it('turns an empty optional setting off, and gives an empty setting with a default its default', () => {
      const optional = ['SMTP_URL', 'TEMPORAL_API_KEY', 'TEMPORAL_TLS_CA_PATH', 'TEMPORAL_TLS_SERVER_NAME', 'TEMPORAL_TLS_CERT_PATH', 'TEMPORAL_TLS_KEY_PATH', 'TEMPORAL_UI_URL', 'TIKTOK_APP_ID', 'TIKTOK_APP_SECRET', 'TIKTOK_OAUTH_REDIRECT_URI'] as const;
      const withDefault = ['PORT', 'HOST', 'LOG_LEVEL', 'MAIL_FROM', 'TRUST_PROXY', 'TEMPORAL_ADDRESS', 'TIKTOK_API_URL', 'DATABASE_POOL_MAX', 'INGEST_STORAGE_DEADLINE_MS'] as const;
      const env = loadEnv(ingestEnvSchema, { ...valid, ...Object.fromEntries([...optional, ...withDefault].map((name) => [name, ''])) });
      for (const name of optional) expect({ name, value: env[name] }).toEqual({ name, value: undefined });
      expect(env).toMatchObject({ ...loadEnv(ingestEnvSchema, valid), PORT: 8080 });
      const worker = loadEnv(workerEnvSchema, { ...valid, WORKER_HEALTH_PORT: '', WORKER_SHUTDOWN_GRACE_MS: '' });
      expect([worker.WORKER_HEALTH_PORT, worker.WORKER_SHUTDOWN_GRACE_MS]).toEqual([undefined, 15_000]);
    });

    it('still refuses an empty required variable, saying it is empty', () => {
      const attempt = () => loadEnv(ingestEnvSchema, { ...valid, SECRET_KEY: '', ADMIN_TOKEN: ' ', DATABASE_URL: '' });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(
        'Invalid configuration: DATABASE_URL is empty, which counts as unset, and it is required (e.g. postgres://user@127.0.0.1:5432/signalbox); ' +
          'ADMIN_TOKEN is empty, which counts as unset, and it is required: the operator token for /admin (at least 24 characters); ' +
          'SECRET_KEY is empty, which counts as unset, and it is required: 32 random bytes as 64 hex characters (openssl rand -hex 32)',
      );
      expect(() => loadEnv(secretRotationEnvSchema, { ...valid, SECRET_KEY_PREVIOUS: '' })).toThrow(
        'Invalid configuration: SECRET_KEY_PREVIOUS is empty, which counts as unset, and it is required: the key being retired, with SECRET_KEY set to the new one',
      );
    });
  });
});
