import { isIP } from 'node:net';
import path from 'node:path';
import { isValidEmail, normalizeEmail } from '@cloudvault/contract/validation';

/** Everything the server reads from the environment, validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** `postgres://…` for PostgreSQL; absent means SQLite in dataDir. */
  databaseUrl: string | undefined;
  /** Absent means a secret generated once and kept in dataDir. */
  jwtSecret: string | undefined;
  /** JSON file with the plan catalogue; absent means the one shipped in the repository. */
  plansFile: string | undefined;
  /** The built web app; absent or missing on disk means the API is served alone. */
  webDistDir: string | undefined;
  /** Where file bytes live: DATA_DIR/blobs, or an S3-protocol bucket. */
  storage:
    | { driver: 'local'; root: string }
    | ({
        driver: 's3';
        bucket: string;
        region: string;
        endpoint?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
        forcePathStyle: boolean;
        presignedDownloads: boolean;
      } & S3RequestLimits);
  /** Where every node's rate limits and failure counters live: Redis when set, else the database (docs/decisions/0019). */
  redisUrl: string | undefined;
  /** Outgoing mail: SMTP when set, else .eml files in DATA_DIR/outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  /** Who takes payments: the built-in test checkout, or Stripe. */
  payments: PaymentsConfig;
  logLevel: string;
  /**
   * Whose X-Forwarded-For names the client (for limits and logs): nobody (false), that many
   * hops nearest the server, or the listed proxy addresses and ranges (Fastify's trustProxy).
   */
  trustProxy: false | number | string[];
  /** Accounts whose (verified) address is listed here have the admin role; lower-cased. */
  adminEmails: string[];
  /** The memory all buffered downloads and zips may hold at once, in bytes (lib/transfer-budget.ts). */
  transferMemoryBytes: number;
  /**
   * Whether start-up loads the native addon (CLOUDVAULT_NATIVE, on unless `0`); off, every
   * transfer takes the portable path a build without the addon takes (lib/native-addon.ts).
   */
  nativeAddon: boolean;
  /**
   * The operator's word that this server runs alone (SINGLE_NODE): with PostgreSQL it allows
   * parts that live on one node's disk, blobs and the mail outbox (docs/decisions/0020-running-several-nodes.md).
   */
  singleNode: boolean;
  /**
   * How long a client connection may take or send nothing before it is closed
   * (CLIENT_IDLE_TIMEOUT_SECONDS, default 120): a download the client stopped reading gives
   * back its file, transfer memory and connection, a stalled upload its reservation.
   */
  clientIdleTimeoutMs: number;
  /** How long, after SIGTERM, running uploads and downloads may take to finish before they are cut (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** The bearer token of GET /metrics (METRICS_TOKEN); absent means the route answers 404. */
  metricsToken: string | undefined;
  /**
   * How long an upload's reservation lives without renewal (UPLOAD_LEASE_SECONDS, default 60):
   * past it, another node takes the uploading node for dead and gives the bytes back
   * (docs/decisions/0021-crash-safe-storage.md).
   */
  uploadLeaseMs: number;
  /**
   * How old an unreferenced blob, unfinished multipart upload or temp file must be before
   * the sweeper removes it (STORAGE_SWEEP_GRACE_SECONDS, default a day).
   */
  sweepGraceMs: number;
  /** Thumbnails one node makes at once (THUMBNAIL_CONCURRENCY, default 1): the rest wait, uploads keep the other cores. */
  thumbnailConcurrency: number;
  /** Single sign-on with an OpenID provider (OIDC_*); absent when OIDC_ISSUER is not set (docs/decisions/0064-single-sign-on.md). */
  singleSignOn: SingleSignOnConfig | undefined;
  /** Who may sign in with a password (PASSWORD_SIGN_IN): everyone, or only operators (ADMIN_EMAILS) once single sign-on is on. */
  passwordSignIn: 'everyone' | 'admins-only';
}

/** The OpenID provider the operator runs; the redirect URI is PUBLIC_URL/api/auth/oidc/callback. */
export interface SingleSignOnConfig {
  /** The issuer identifier; discovery reads ISSUER/.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's words after "Sign in with" (OIDC_BUTTON_LABEL, default "single sign-on"). */
  buttonLabel: string;
  /** Members of this group (the `groups` claim) are operators (OIDC_ADMIN_GROUP); absent means none by group. */
  adminGroup: string | undefined;
  /**
   * Plain http to the provider, allowed only for an issuer on this machine (127.0.0.1, ::1,
   * localhost): a provider on the network must be reached over TLS.
   */
  allowInsecureRequests: boolean;
}

/**
 * How long the server waits on the object store before it answers STORAGE_UNAVAILABLE
 * (docs/decisions/0040-storage-faults.md): without these, a stalled store held requests forever.
 */
export interface S3RequestLimits {
  /** How long a connection to the store may take to open (S3_CONNECT_TIMEOUT_SECONDS, default 5). */
  connectTimeoutMs: number;
  /** How long a connection may stay silent, a download's body included, before it is dropped (S3_IDLE_TIMEOUT_SECONDS, default 15). */
  idleTimeoutMs: number;
  /** Tries of each request, the first included, with the SDK's standard retries for 5xx, throttling and timeouts (S3_MAX_ATTEMPTS, default 3). */
  maxAttempts: number;
}

export type PaymentsConfig =
  | { provider: 'local' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Stripe Price ids of the paid plans. */
      prices: { PRO: string; PREMIUM: string };
      /** Another Stripe API address (a local stand-in, stripe-mock); absent means Stripe's own. */
      apiUrl?: string;
    };

/** A configuration value that cannot be used, named so the operator can fix it in one go. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable} ${reason}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(env: Env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535 (got "${raw}")`);
  }
  return port;
}

function readUrl(variable: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(variable, `must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(variable, `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function readBoolean(variable: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(variable, `must be true or false (got "${raw}")`);
}

/** proxy-addr's names for whole ranges: 127.0.0.1/8 and ::1, 169.254.0.0/16 and fe80::/10, private networks. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: a number of hops or a comma-separated list of proxy addresses. A bare
 * `true` is refused: it would trust an X-Forwarded-For written by any client, so anyone
 * could pick the address that limits count.
 */
function readTrustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (value.toLowerCase() !== 'true' && entries.every(isProxyAddress)) return entries;
  throw new ConfigError(
    'TRUST_PROXY',
    `must be a number of trusted proxy hops or a comma-separated list of trusted proxy addresses (a bare true would let any client choose its address) (got "${raw}")`,
  );
}

/**
 * S3_PRESIGNED_DOWNLOADS: single-file downloads answer 302 to a presigned URL of the store
 * (docs/decisions/0022). On by default with S3; local blobs have no such URL, so asking for
 * it there is refused rather than silently ignored.
 */
function readPresignedDownloads(raw: string | undefined, driver: 'local' | 's3'): boolean {
  if (raw === undefined || raw === '') return driver === 's3';
  const on = readBoolean('S3_PRESIGNED_DOWNLOADS', raw);
  if (on && driver === 'local')
    throw new ConfigError('S3_PRESIGNED_DOWNLOADS', 'needs STORAGE_DRIVER=s3 (local blobs are sent by the server itself)');
  return on;
}

function readStorage(env: Env, dataDir: string): Config['storage'] {
  const driver = env.STORAGE_DRIVER || 'local';
  if (driver === 'local') {
    readPresignedDownloads(env.S3_PRESIGNED_DOWNLOADS, driver);
    return { driver, root: path.join(dataDir, 'blobs') };
  }
  if (driver !== 's3') throw new ConfigError('STORAGE_DRIVER', `must be local or s3 (got "${driver}")`);
  if (!env.S3_BUCKET) throw new ConfigError('S3_BUCKET', 'is required when STORAGE_DRIVER=s3');
  return {
    driver,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    ...(env.S3_ENDPOINT ? { endpoint: readUrl('S3_ENDPOINT', env.S3_ENDPOINT, ['http:', 'https:']) } : {}),
    ...(env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID } : {}),
    ...(env.S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.S3_SECRET_ACCESS_KEY } : {}),
    forcePathStyle: readBoolean('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE),
    presignedDownloads: readPresignedDownloads(env.S3_PRESIGNED_DOWNLOADS, driver),
    connectTimeoutMs: readSeconds(env, 'S3_CONNECT_TIMEOUT_SECONDS', 5, 1),
    idleTimeoutMs: readSeconds(env, 'S3_IDLE_TIMEOUT_SECONDS', 15, 1),
    maxAttempts: readS3MaxAttempts(env.S3_MAX_ATTEMPTS),
  };
}

function readS3MaxAttempts(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10)
    throw new ConfigError('S3_MAX_ATTEMPTS', `must be a whole number from 1 to 10 (got "${raw}")`);
  return Number(raw);
}

function readPayments(env: Env): PaymentsConfig {
  const provider = env.PAYMENTS_PROVIDER || 'local';
  if (provider === 'local') return { provider };
  if (provider !== 'stripe') throw new ConfigError('PAYMENTS_PROVIDER', `must be local or stripe (got "${provider}")`);
  const required = (variable: string): string => {
    const value = env[variable];
    if (!value) throw new ConfigError(variable, 'is required when PAYMENTS_PROVIDER=stripe');
    return value;
  };
  return {
    provider,
    secretKey: required('STRIPE_SECRET_KEY'),
    webhookSecret: required('STRIPE_WEBHOOK_SECRET'),
    prices: { PRO: required('STRIPE_PRICE_PRO'), PREMIUM: required('STRIPE_PRICE_PREMIUM') },
    ...(env.STRIPE_API_URL ? { apiUrl: readUrl('STRIPE_API_URL', env.STRIPE_API_URL, ['http:', 'https:']) } : {}),
  };
}

function readAdminEmails(raw: string | undefined): string[] {
  if (!raw || !raw.trim()) return [];
  return raw.split(',').map((entry) => {
    const email = normalizeEmail(entry);
    if (!isValidEmail(email)) throw new ConfigError('ADMIN_EMAILS', `must be e-mail addresses separated by commas (got "${entry.trim()}")`);
    return email;
  });
}

/** A zip holds up to 13 MiB: a budget below it could never send one. */
const MIN_TRANSFER_MEMORY_MB = 16;

function readTransferMemory(env: Env): number {
  const raw = env.TRANSFER_MEMORY_MB;
  if (raw === undefined || raw === '') return 512 * 1024 * 1024;
  if (!/^\d+$/.test(raw) || Number(raw) < MIN_TRANSFER_MEMORY_MB || Number(raw) > 1024 * 1024) {
    throw new ConfigError('TRANSFER_MEMORY_MB', `must be a whole number of MiB from ${MIN_TRANSFER_MEMORY_MB} to 1048576 (got "${raw}")`);
  }
  return Number(raw) * 1024 * 1024;
}

function readNativeSwitch(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '1') return true;
  if (raw === '0') return false;
  throw new ConfigError('CLOUDVAULT_NATIVE', `must be 0 (portable paths, no native addon) or 1 (got "${raw}")`);
}

function readMetricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters long');
  return raw;
}

function readShutdownGrace(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 30_000;
  if (!/^\d+$/.test(raw) || Number(raw) > 3600)
    throw new ConfigError('SHUTDOWN_GRACE_SECONDS', `must be a whole number of seconds from 0 to 3600 (got "${raw}")`);
  return Number(raw) * 1000;
}

/**
 * PostgreSQL is what several nodes share; blobs on local disk and the mail outbox are seen
 * by one node only (an upload on one, its download on another, would not find it). Such a
 * setup starts only when the operator says the server runs alone.
 */
function refuseNodeLocalParts(config: Pick<Config, 'databaseUrl' | 'storage' | 'mail' | 'singleNode'>): void {
  if (config.databaseUrl === undefined || config.singleNode) return;
  const local = [
    ...(config.storage.driver === 'local' ? ['blobs on local disk (STORAGE_DRIVER=local)'] : []),
    ...(config.mail.smtpUrl === undefined ? ['the mail outbox folder (no SMTP_URL)'] : []),
  ];
  if (local.length === 0) return;
  throw new ConfigError(
    'DATABASE_URL',
    `is PostgreSQL, which several nodes can share, but ${local.join(' and ')} would be seen by this node only: set STORAGE_DRIVER=s3 and SMTP_URL, or SINGLE_NODE=1 if this server runs alone`,
  );
}

function readThumbnailConcurrency(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64)
    throw new ConfigError('THUMBNAIL_CONCURRENCY', `must be a whole number from 1 to 64 (got "${raw}")`);
  return Number(raw);
}

function readSeconds(env: Env, variable: string, fallback: number, min: number): number {
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback * 1000;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > 365 * 24 * 3600) {
    throw new ConfigError(variable, `must be a whole number of seconds from ${min} to 31536000 (got "${raw}")`);
  }
  return Number(raw) * 1000;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function readSingleSignOn(env: Env): SingleSignOnConfig | undefined {
  if (!env.OIDC_ISSUER) {
    for (const variable of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_BUTTON_LABEL', 'OIDC_ADMIN_GROUP'])
      if (env[variable]) throw new ConfigError('OIDC_ISSUER', `is required when ${variable} is set`);
    return undefined;
  }
  const issuer = readUrl('OIDC_ISSUER', env.OIDC_ISSUER, ['http:', 'https:']);
  const { protocol, hostname } = new URL(issuer);
  const allowInsecureRequests = protocol === 'http:';
  if (allowInsecureRequests && !LOOPBACK_HOSTS.has(hostname))
    throw new ConfigError('OIDC_ISSUER', `must start with https:// unless the provider runs on this machine (got "${env.OIDC_ISSUER}")`);
  for (const variable of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'])
    if (!env[variable]) throw new ConfigError(variable, 'is required when OIDC_ISSUER is set');
  const buttonLabel = (env.OIDC_BUTTON_LABEL ?? '').trim() || 'single sign-on';
  if (buttonLabel.length > 40) throw new ConfigError('OIDC_BUTTON_LABEL', `must be at most 40 characters (got "${buttonLabel}")`);
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID as string,
    clientSecret: env.OIDC_CLIENT_SECRET as string,
    buttonLabel,
    adminGroup: env.OIDC_ADMIN_GROUP?.trim() || undefined,
    allowInsecureRequests,
  };
}

function readPasswordSignIn(raw: string | undefined, singleSignOn: SingleSignOnConfig | undefined): Config['passwordSignIn'] {
  if (raw === undefined || raw === '' || raw === 'everyone') return 'everyone';
  if (raw !== 'admins-only') throw new ConfigError('PASSWORD_SIGN_IN', `must be everyone or admins-only (got "${raw}")`);
  // Nobody but the operators could sign in at all.
  if (!singleSignOn) throw new ConfigError('PASSWORD_SIGN_IN', 'can be admins-only only when single sign-on is configured (OIDC_ISSUER)');
  return raw;
}

/** Reads and checks the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env, cwd = process.cwd()): Config {
  const port = readPort(env);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = env.PUBLIC_URL ? readUrl('PUBLIC_URL', env.PUBLIC_URL, ['http:', 'https:']) : `http://localhost:${port}`;
  const databaseUrl = env.DATABASE_URL ? readUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']) : undefined;
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 characters long');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  const dataDir = path.resolve(cwd, env.DATA_DIR || 'data');
  const singleSignOn = readSingleSignOn(env);
  const config: Config = {
    port,
    host,
    publicUrl,
    dataDir,
    storage: readStorage(env, dataDir),
    payments: readPayments(env),
    mail: {
      smtpUrl: env.SMTP_URL ? readUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']) : undefined,
      from: env.MAIL_FROM || `no-reply@${new URL(publicUrl).hostname}`,
    },
    databaseUrl,
    redisUrl: env.REDIS_URL ? readUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']) : undefined,
    jwtSecret,
    plansFile: env.PLANS_FILE ? path.resolve(cwd, env.PLANS_FILE) : undefined,
    webDistDir: env.WEB_DIST_DIR ? path.resolve(cwd, env.WEB_DIST_DIR) : undefined,
    logLevel,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    adminEmails: readAdminEmails(env.ADMIN_EMAILS),
    transferMemoryBytes: readTransferMemory(env),
    nativeAddon: readNativeSwitch(env.CLOUDVAULT_NATIVE),
    singleNode: readBoolean('SINGLE_NODE', env.SINGLE_NODE),
    clientIdleTimeoutMs: readSeconds(env, 'CLIENT_IDLE_TIMEOUT_SECONDS', 120, 1),
    shutdownGraceMs: readShutdownGrace(env.SHUTDOWN_GRACE_SECONDS),
    metricsToken: readMetricsToken(env.METRICS_TOKEN),
    uploadLeaseMs: readSeconds(env, 'UPLOAD_LEASE_SECONDS', 60, 1),
    sweepGraceMs: readSeconds(env, 'STORAGE_SWEEP_GRACE_SECONDS', 24 * 3600, 0),
    thumbnailConcurrency: readThumbnailConcurrency(env.THUMBNAIL_CONCURRENCY),
    singleSignOn,
    passwordSignIn: readPasswordSignIn(env.PASSWORD_SIGN_IN, singleSignOn),
  };
  refuseNodeLocalParts(config);
  return config;
}
