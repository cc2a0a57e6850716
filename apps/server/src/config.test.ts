import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the embedded defaults with an empty environment', () => {
    const config = loadConfig({}, '/srv/cloudvault');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: '/srv/cloudvault/data',
      databaseUrl: undefined,
      jwtSecret: undefined,
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it('derives PUBLIC_URL from PORT and drops a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' }).publicUrl).toBe('https://files.example.com');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ PUBLIC_URL: 'files.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://files.example.com' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ ADMIN_EMAILS: 'root@example.com, not-an-address' }, 'ADMIN_EMAILS'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'TRUE' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.300' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRANSFER_MEMORY_MB: '8' }, 'TRANSFER_MEMORY_MB'],
    [{ TRANSFER_MEMORY_MB: '1.5' }, 'TRANSFER_MEMORY_MB'],
    [{ CLOUDVAULT_NATIVE: 'false' }, 'CLOUDVAULT_NATIVE'],
    [{ CLOUDVAULT_NATIVE: '2' }, 'CLOUDVAULT_NATIVE'],
    [{ SHUTDOWN_GRACE_SECONDS: '-1' }, 'SHUTDOWN_GRACE_SECONDS'],
    [{ SHUTDOWN_GRACE_SECONDS: '2.5' }, 'SHUTDOWN_GRACE_SECONDS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ S3_PRESIGNED_DOWNLOADS: 'true' }, 'S3_PRESIGNED_DOWNLOADS'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_PRESIGNED_DOWNLOADS: 'yes' }, 'S3_PRESIGNED_DOWNLOADS'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_CONNECT_TIMEOUT_SECONDS: '0' }, 'S3_CONNECT_TIMEOUT_SECONDS'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_IDLE_TIMEOUT_SECONDS: '1.5' }, 'S3_IDLE_TIMEOUT_SECONDS'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_MAX_ATTEMPTS: '0' }, 'S3_MAX_ATTEMPTS'],
    [{ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_MAX_ATTEMPTS: '11' }, 'S3_MAX_ATTEMPTS'],
    [{ CLIENT_IDLE_TIMEOUT_SECONDS: '0' }, 'CLIENT_IDLE_TIMEOUT_SECONDS'],
    [{ OIDC_CLIENT_ID: 'cloudvault' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'http://sso.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_SECRET: 's' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_ISSUER: 'https://sso.example.com', OIDC_CLIENT_ID: 'c' }, 'OIDC_CLIENT_SECRET'],
    [{ PASSWORD_SIGN_IN: 'nobody' }, 'PASSWORD_SIGN_IN'],
    [{ PASSWORD_SIGN_IN: 'admins-only' }, 'PASSWORD_SIGN_IN'],
  ])('names the variable of a bad value %o', (env, variable) => {
    try {
      loadConfig(env);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message.startsWith(variable)).toBe(true);
    }
  });

  it('reads ADMIN_EMAILS as trimmed, lower-cased addresses, none by default', () => {
    expect(loadConfig({}).adminEmails).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Root@Example.com ,ops@example.org' }).adminEmails).toEqual(['root@example.com', 'ops@example.org']);
  });

  it('reads TRUST_PROXY as a number of hops or a list of proxy addresses, never a bare true', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1' }).trustProxy).toEqual(['10.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16,::1,fd00::/8 ' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/^TRUST_PROXY .*hops.*addresses/);
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', SINGLE_NODE: '1' }).databaseUrl).toBe(
      'postgres://u@127.0.0.1:5432/db',
    );
  });

  it('shares limits through Redis only when REDIS_URL is set, and refuses a URL that is not redis:// or rediss://', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://:secret@127.0.0.1:6379/2' }).redisUrl).toBe('redis://:secret@127.0.0.1:6379/2');
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.com:6380' }).redisUrl).toBe('rediss://cache.example.com:6380');
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/^REDIS_URL must start with redis:\/\/ or rediss:\/\//);
  });

  describe('with PostgreSQL, which several nodes can share', () => {
    const postgres = { DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' };
    const shared = { ...postgres, STORAGE_DRIVER: 's3', S3_BUCKET: 'files', SMTP_URL: 'smtp://mail.example.com:587' };

    it.each([
      [{ ...postgres }, /blobs on local disk \(STORAGE_DRIVER=local\) and the mail outbox folder \(no SMTP_URL\)/],
      [{ ...shared, STORAGE_DRIVER: 'local' }, /but blobs on local disk \(STORAGE_DRIVER=local\) would be seen by this node only/],
      [{ ...shared, SMTP_URL: '' }, /but the mail outbox folder \(no SMTP_URL\) would be seen by this node only/],
    ])('refuses parts only one node sees unless SINGLE_NODE says it runs alone: %o', (env, reason) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(reason);
      expect(() => loadConfig(env)).toThrow(/SINGLE_NODE=1 if this server runs alone$/);
      expect(loadConfig({ ...env, SINGLE_NODE: '1' }).singleNode).toBe(true);
      expect(loadConfig({ ...env, SINGLE_NODE: 'true' }).singleNode).toBe(true);
    });

    it('starts with shared blobs and SMTP, and SQLite needs no word at all', () => {
      expect(loadConfig(shared).singleNode).toBe(false);
      expect(loadConfig({}).singleNode).toBe(false);
      expect(() => loadConfig({ SINGLE_NODE: 'yes' })).toThrow(/^SINGLE_NODE must be true or false/);
    });
  });

  it('gives running transfers 30 s after SIGTERM unless SHUTDOWN_GRACE_SECONDS says otherwise', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(30_000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '0' }).shutdownGraceMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '120' }).shutdownGraceMs).toBe(120_000);
  });

  it('caps buffered transfers at 512 MiB unless TRANSFER_MEMORY_MB says otherwise', () => {
    expect(loadConfig({}).transferMemoryBytes).toBe(512 * 1024 * 1024);
    expect(loadConfig({ TRANSFER_MEMORY_MB: '64' }).transferMemoryBytes).toBe(64 * 1024 * 1024);
  });

  it('presigns S3 downloads unless S3_PRESIGNED_DOWNLOADS turns it off; local storage takes only an off', () => {
    const s3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'b' };
    expect(loadConfig(s3).storage).toMatchObject({ driver: 's3', presignedDownloads: true });
    expect(loadConfig({ ...s3, S3_PRESIGNED_DOWNLOADS: '0' }).storage).toMatchObject({ presignedDownloads: false });
    expect(loadConfig({ ...s3, S3_PRESIGNED_DOWNLOADS: 'false' }).storage).toMatchObject({ presignedDownloads: false });
    expect(loadConfig({ S3_PRESIGNED_DOWNLOADS: '0' }).storage).toEqual({ driver: 'local', root: expect.any(String) });
  });

  it('bounds how long S3 requests and idle clients are waited for, 5 s, 15 s, 3 tries and 120 s unless told otherwise', () => {
    const s3 = { STORAGE_DRIVER: 's3', S3_BUCKET: 'b' };
    expect(loadConfig(s3).storage).toMatchObject({ connectTimeoutMs: 5_000, idleTimeoutMs: 15_000, maxAttempts: 3 });
    expect(
      loadConfig({ ...s3, S3_CONNECT_TIMEOUT_SECONDS: '2', S3_IDLE_TIMEOUT_SECONDS: '30', S3_MAX_ATTEMPTS: '1' }).storage,
    ).toMatchObject({ connectTimeoutMs: 2_000, idleTimeoutMs: 30_000, maxAttempts: 1 });
    expect(loadConfig({}).clientIdleTimeoutMs).toBe(120_000);
    expect(loadConfig({ CLIENT_IDLE_TIMEOUT_SECONDS: '30' }).clientIdleTimeoutMs).toBe(30_000);
  });

  it('loads the native addon unless CLOUDVAULT_NATIVE=0', () => {
    expect(loadConfig({}).nativeAddon).toBe(true);
    expect(loadConfig({ CLOUDVAULT_NATIVE: '' }).nativeAddon).toBe(true);
    expect(loadConfig({ CLOUDVAULT_NATIVE: '1' }).nativeAddon).toBe(true);
    expect(loadConfig({ CLOUDVAULT_NATIVE: '0' }).nativeAddon).toBe(false);
  });

  it('leases uploads for 60 s and sweeps after a day unless UPLOAD_LEASE_SECONDS and STORAGE_SWEEP_GRACE_SECONDS say otherwise', () => {
    expect(loadConfig({}).uploadLeaseMs).toBe(60_000);
    expect(loadConfig({ UPLOAD_LEASE_SECONDS: '3' }).uploadLeaseMs).toBe(3000);
    expect(() => loadConfig({ UPLOAD_LEASE_SECONDS: '0' })).toThrow(/UPLOAD_LEASE_SECONDS must be a whole number of seconds/);
    expect(() => loadConfig({ UPLOAD_LEASE_SECONDS: '1.5' })).toThrow(ConfigError);
    expect(loadConfig({}).sweepGraceMs).toBe(24 * 3600 * 1000);
    expect(loadConfig({ STORAGE_SWEEP_GRACE_SECONDS: '0' }).sweepGraceMs).toBe(0);
  });

  it('makes one thumbnail at a time per node unless THUMBNAIL_CONCURRENCY says otherwise', () => {
    expect(loadConfig({}).thumbnailConcurrency).toBe(1);
    expect(loadConfig({ THUMBNAIL_CONCURRENCY: '4' }).thumbnailConcurrency).toBe(4);
    expect(() => loadConfig({ THUMBNAIL_CONCURRENCY: '0' })).toThrow(/THUMBNAIL_CONCURRENCY must be a whole number from 1 to 64/);
    expect(() => loadConfig({ THUMBNAIL_CONCURRENCY: 'many' })).toThrow(ConfigError);
  });

  it('turns single sign-on on with OIDC_ISSUER, over plain http only to a provider on this machine', () => {
    expect(loadConfig({}).singleSignOn).toBeUndefined();
    expect(loadConfig({}).passwordSignIn).toBe('everyone');
    const sso = { OIDC_ISSUER: 'https://sso.example.com/realms/home/', OIDC_CLIENT_ID: 'cloudvault', OIDC_CLIENT_SECRET: 'secret' };
    expect(loadConfig({ ...sso, PASSWORD_SIGN_IN: 'admins-only' })).toMatchObject({
      singleSignOn: {
        issuer: 'https://sso.example.com/realms/home',
        clientId: 'cloudvault',
        clientSecret: 'secret',
        buttonLabel: 'single sign-on',
        adminGroup: undefined,
        allowInsecureRequests: false,
      },
      passwordSignIn: 'admins-only',
    });
    const local = loadConfig({ ...sso, OIDC_ISSUER: 'http://127.0.0.1:4000', OIDC_BUTTON_LABEL: 'Keycloak', OIDC_ADMIN_GROUP: 'ops' });
    expect(local.singleSignOn).toMatchObject({ allowInsecureRequests: true, buttonLabel: 'Keycloak', adminGroup: 'ops' });
  });
});
