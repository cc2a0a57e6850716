import path from 'node:path';
import type { BlobStore } from './adapters/blob-store/blob-store.ts';
import { createBlobStore } from './adapters/blob-store/create-blob-store.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createTransferBudget, type TransferBudget } from './lib/transfer-budget.ts';
import { createFailureLimiter } from './lib/failure-limiter.ts';
import { hashPassword, verifyPassword } from './lib/passwords.ts';
import { loadSecret } from './lib/secrets.ts';
import { createSharedSecrets } from './db/shared-secrets.ts';
import { loadNativeAddon } from './lib/native-addon.ts';
import { createMetrics, type Metrics } from './lib/metrics.ts';
import { registerPoolMetrics } from './db/pool-metrics.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createSessionTokens } from './modules/accounts/session-tokens.ts';
import { createFilesRepository } from './modules/files/files.repository.ts';
import { createFilesService } from './modules/files/files.service.ts';
import { createDownloadLinks } from './modules/files/download-links.ts';
import { createFolderArchiveService } from './modules/files/folder-archive.service.ts';
import { createStorageService } from './modules/files/storage.service.ts';
import { createUploadsService } from './modules/files/uploads.service.ts';
import { createFoldersRepository } from './modules/folders/folders.repository.ts';
import { createFoldersService } from './modules/folders/folders.service.ts';
import { createTrashRepository } from './modules/trash/trash.repository.ts';
import { createTrashService } from './modules/trash/trash.service.ts';
import { consoleLog, type ServiceLog } from './lib/service-log.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettingsService, mergeSettings } from './modules/settings/settings.service.ts';
import { loadPlanCatalogue } from './modules/plans/plans.catalogue.ts';
import { createLocalPaymentProvider, type LocalPaymentProvider } from './adapters/payments/local-payment-provider.ts';
import type { PaymentProvider } from './adapters/payments/payment-provider.ts';
import { createBillingRepository } from './modules/billing/billing.repository.ts';
import { addMonth, prorationCents, toCents } from './modules/billing/billing-rules.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { createMailer, type Mailer } from './adapters/mail/mailer.ts';
import { createMailRepository } from './modules/mail/mail.repository.ts';
import { createMailService } from './modules/mail/mail.service.ts';
import { createShareTokens } from './modules/shares/share-tokens.ts';
import { deviceName } from './lib/device-name.ts';
import { storageAlertCrossed } from './modules/notifications/storage-alerts.ts';
import { createActivityRepository } from './modules/activity/activity.repository.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { newSignInMail, passwordChangedMail, storageAlertMail } from './modules/notifications/notification-mail.ts';
import { createTwoFactorRepository } from './modules/two-factor/two-factor.repository.ts';
import { createTwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { createProfileService } from './modules/profile/profile.service.ts';
import { createAccountDataRepository } from './modules/account-data/account-data.repository.ts';
import { createAccountExportService } from './modules/account-data/account-export.service.ts';
import { createAccountDeletionService } from './modules/account-data/account-deletion.service.ts';
import { createVersionsRepository } from './modules/versions/versions.repository.ts';
import { createVersionsService } from './modules/versions/versions.service.ts';
import { createAnalyticsRepository } from './modules/analytics/analytics.repository.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createSharesRepository } from './modules/shares/shares.repository.ts';
import { createSharesService } from './modules/shares/shares.service.ts';
import { createAccountTokensRepository } from './modules/account-tokens/account-tokens.repository.ts';
import { createAccountTokensService } from './modules/account-tokens/account-tokens.service.ts';
import { presentUser } from './modules/accounts/accounts.presenter.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;

/** The Stripe SDK costs memory at start-up: loaded only when Stripe is the provider. */
async function loadStripe(payments: Config['payments'], publicUrl: string): Promise<PaymentProvider> {
  if (payments.provider !== 'stripe') throw new Error('loadStripe needs the stripe payments configuration');
  const { createStripePaymentProvider } = await import('./adapters/payments/stripe-payment-provider.ts');
  return createStripePaymentProvider(payments, { publicUrl });
}

/** Everything the routes need, wired once. Tests pass their own clock. */
export interface Container {
  config: Config;
  database: DatabaseHandle;
  accounts: ReturnType<typeof createAccountsService>;
  accountTokens: ReturnType<typeof createAccountTokensService>;
  folders: ReturnType<typeof createFoldersService>;
  files: ReturnType<typeof createFilesService>;
  uploads: ReturnType<typeof createUploadsService>;
  storage: ReturnType<typeof createStorageService>;
  folderArchives: ReturnType<typeof createFolderArchiveService>;
  links: ReturnType<typeof createDownloadLinks>;
  trash: ReturnType<typeof createTrashService>;
  settings: ReturnType<typeof createSettingsService>;
  shares: ReturnType<typeof createSharesService>;
  activity: ReturnType<typeof createActivityService>;
  notifications: ReturnType<typeof createNotificationsService>;
  twoFactor: ReturnType<typeof createTwoFactorService>;
  profile: ReturnType<typeof createProfileService>;
  accountExports: ReturnType<typeof createAccountExportService>;
  accountDeletion: ReturnType<typeof createAccountDeletionService>;
  versions: ReturnType<typeof createVersionsService>;
  analytics: ReturnType<typeof createAnalyticsService>;
  mail: ReturnType<typeof createMailService>;
  mailer: Mailer;
  billing: ReturnType<typeof createBillingService>;
  payments: PaymentProvider;
  /** The built-in test checkout, when it is the provider (its pages and renewals). */
  localPayments: LocalPaymentProvider | undefined;
  billingRecords: ReturnType<typeof createBillingRepository>;
  plans: ReturnType<typeof loadPlanCatalogue>;
  blobs: BlobStore;
  /** The memory buffered downloads and zips may hold at once, shared by every download route. */
  transferBudget: TransferBudget;
  /** Which paths uploads, downloads and zips take: the native addon's or the portable ones (CLOUDVAULT_NATIVE). */
  transferPaths: string;
  /** Prometheus metrics; any part may register its own (lib/metrics.ts). Served when METRICS_TOKEN is set. */
  metrics: Metrics;
  close(): Promise<void>;
}

export async function createContainer(
  config: Config,
  options: { clock?: Clock; log?: ServiceLog } = {},
): Promise<Container> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? consoleLog;
  const plans = loadPlanCatalogue(config.plansFile);
  const database = openDatabase({ ...config, onIdleError: (error) => log.error({ err: error }, 'database connection lost') });
  try {
    await migrateToLatest(database.db, database.dialect);
  } catch (error) {
    await database.close();
    throw error;
  }
  // Nodes sharing PostgreSQL share one signing key, kept in the database (docs/decisions/0020-running-several-nodes.md).
  const sharedSecrets = database.dialect === 'postgres' ? createSharedSecrets(database.db, clock) : undefined;
  const jwtSecret = await loadSecret({ name: 'jwt-secret', configured: config.jwtSecret, dataDir: config.dataDir, shared: sharedSecrets });
  const metrics = createMetrics({ processMetrics: config.metricsToken !== undefined });
  registerPoolMetrics(metrics, database);

  const transferPaths = loadNativeAddon(config.nativeAddon);
  const blobs = await createBlobStore(config.storage);
  const accountsRepository = createAccountsRepository(database.db);
  const planOf = async (userId: string) => (await accountsRepository.findUserById(userId))?.plan_id ?? 'FREE';
  const settingsRepository = createSettingsRepository(database.db);
  const settings = createSettingsService({
    settings: settingsRepository,
    twoFactorEnabled: async (userId) => Boolean((await accountsRepository.findUserById(userId))?.two_factor_enabled),
    clock,
  });

  const mailer = createMailer({ smtpUrl: config.mail.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mail.from });
  const mail = createMailService({ queue: createMailRepository(database.db), mailer, clock, log });
  const activity = createActivityService({ activity: createActivityRepository(database.db), clock, log });
  const notifications = createNotificationsService({
    notifications: createNotificationsRepository(database.db),
    settingsOf: (userId) => settings.get(userId),
    sendMail: (message) => mail.send(message),
    clock,
    log,
  });
  const twoFactor = createTwoFactorService({
    twoFactor: createTwoFactorRepository(database.db),
    clock,
    // Loaded when first asked for: only two-factor set-up draws a code.
    qrCodeDataUrl: async (text) => (await import('qrcode')).default.toDataURL(text, { margin: 1, width: 240 }),
    activity,
    // accounts is wired just below; it is asked only when a request comes.
    confirmPassword: (userId, password, ip) => accounts.confirmPassword(userId, password, ip),
  });
  const admins: ReadonlySet<string> = new Set(config.adminEmails);
  const accountTokens = createAccountTokensService({
    tokens: createAccountTokensRepository(database.db),
    users: accountsRepository,
    languageOf: async (userId) => (await settings.get(userId)).appearance.language,
    sendMail: (message) => mail.send(message),
    presentUser: (row) => presentUser(row, plans, admins),
    passwords: { hash: hashPassword },
    verificationResends: createFailureLimiter({ max: 5, windowMs: ONE_HOUR, clock }),
    resetRequestsByEmail: createFailureLimiter({ max: 5, windowMs: ONE_HOUR, clock }),
    resetRequestsByIp: createFailureLimiter({ max: 20, windowMs: ONE_HOUR, clock }),
    passwordReset: async (user) => {
      await activity.record(user.id, 'password_change');
      await notifications.notify(user.id, {
        type: 'password_changed',
        details: {},
        mail: (language) => passwordChangedMail({ to: user.email, at: clock.now().toISOString(), publicUrl: config.publicUrl }, language),
      });
    },
    forgotPasswordFloorMs: 250,
    clock,
    log,
    publicUrl: config.publicUrl,
  });
  const accounts = createAccountsService({
    accounts: accountsRepository,
    tokens: createSessionTokens(jwtSecret, clock),
    passwords: { hash: hashPassword, verify: verifyPassword },
    plans,
    admins,
    clock,
    loginFailuresByEmailAndIp: createFailureLimiter({ max: 10, windowMs: FIFTEEN_MINUTES, clock }),
    loginFailuresByIp: createFailureLimiter({ max: 100, windowMs: FIFTEEN_MINUTES, clock }),
    verifySecondFactor: (user, code) => twoFactor.verify(user.id, user.totp_secret as string, code),
    signedIn: async (user, client, newDevice) => {
      const device = deviceName(client.userAgent);
      await activity.record(user.id, 'sign_in', { device });
      if (newDevice) {
        const at = clock.now().toISOString();
        await notifications.notify(user.id, { type: 'new_sign_in', details: { device }, mail: (language) => newSignInMail({ to: user.email, device, at, publicUrl: config.publicUrl }, language) });
      }
    },
    registered: (user) => accountTokens.sendVerification(user),
  });

  const foldersRepository = createFoldersRepository(database.db, database.dialect);
  const filesRepository = createFilesRepository(database.db, database.dialect);
  const analytics = createAnalyticsService({ analytics: createAnalyticsRepository(database.db), planOf: async (userId) => plans.get(await planOf(userId)), clock });
  const shares = createSharesService({
    shares: createSharesRepository(database.db),
    files: filesRepository,
    folders: foldersRepository,
    users: { byId: accountsRepository.findUserById, byEmail: accountsRepository.findUserByEmail },
    settingsOf: (userId) => settings.get(userId),
    planOf: async (userId) => plans.get(await planOf(userId)),
    passwords: { hash: hashPassword, verify: verifyPassword },
    tokens: createShareTokens(jwtSecret, clock),
    passwordFailures: createFailureLimiter({ max: 10, windowMs: FIFTEEN_MINUTES, clock }),
    passwordFailuresPerLink: createFailureLimiter({ max: 100, windowMs: FIFTEEN_MINUTES, clock }),
    invitationsPerOwner: createFailureLimiter({ max: 20, windowMs: ONE_HOUR, clock }),
    sendMail: (message) => mail.send(message),
    notifyUser: (userId, event) => notifications.notify(userId, event),
    activity,
    countDailyDownload: (shareId) => analytics.countShareDownload(shareId),
    clock,
    publicUrl: config.publicUrl,
  });
  const folders = createFoldersService({ folders: foldersRepository, clock, privateShareRoot: shares.privateShareRoot });
  const files = createFilesService({ files: filesRepository, folders, blobs, clock });
  const uploads = createUploadsService({
    files: filesRepository,
    folders,
    blobs,
    plans,
    planOf,
    clock,
    uploaded: async (userId, file, usage) => {
      await activity.record(userId, 'upload', { name: file.originalName, size: file.sizeFormatted });
      const crossed = storageAlertCrossed(usage);
      if (crossed === null) return;
      const user = await accountsRepository.findUserById(userId);
      if (!user) return;
      await notifications.notify(userId, {
        type: 'storage_alert',
        // Sizes as bytes, so each reader sees them written in their own language.
        details: { percent: String(crossed), usedBytes: String(usage.after), limitBytes: String(usage.limit) },
        mail: (language) => storageAlertMail({ to: user.email, percent: crossed, usedBytes: usage.after, limitBytes: usage.limit, publicUrl: config.publicUrl }, language),
      });
    },
  });
  const storage = createStorageService({ files: filesRepository, plans, planOf });
  const trash = createTrashService({
    trash: createTrashRepository(database.db, database.dialect),
    blobs,
    clock,
    log,
    retentionOf: async (userId) => (await settings.get(userId)).storage,
    usersWithAutoDelete: async () =>
      (await settingsRepository.listAll())
        .map((row) => ({ userId: row.user_id, storage: mergeSettings(JSON.parse(row.data)).storage }))
        .filter(({ storage }) => storage.autoDelete)
        .map(({ userId, storage }) => ({ userId, deleteAfterDays: storage.deleteAfterDays })),
  });

  const folderArchives = createFolderArchiveService({
    folders: foldersRepository,
    files: filesRepository,
    blobs,
    localFiles: config.storage.driver === 'local',
    compressionEnabled: async (userId) => (await settings.get(userId)).storage.compressionEnabled,
  });

  const billingRecords = createBillingRepository(database.db);
  const localPayments =
    config.payments.provider === 'local'
      ? createLocalPaymentProvider({
          store: billingRecords,
          clock,
          publicUrl: config.publicUrl,
          priceCentsOf: (planId) => toCents(plans.get(planId).price),
          addMonth,
          prorationCents,
        })
      : undefined;
  const payments = localPayments ?? (await loadStripe(config.payments, config.publicUrl));
  const billing = createBillingService({
    billing: billingRecords,
    provider: payments,
    plans,
    clock,
    publicUrl: config.publicUrl,
    storageUsed: (userId) => filesRepository.storageUsed(userId),
    customerDetails: async (userId) => {
      const user = await accountsRepository.findUserById(userId);
      if (!user) throw new Error(`user ${userId} does not exist`);
      return { email: user.email, name: `${user.first_name} ${user.last_name}`.trim() };
    },
    shareCounts: (userId) => shares.counts(userId),
    planChanged: (userId, change) => activity.record(userId, 'plan_change', change),
    log,
    ...(localPayments ? { dueRenewals: () => localPayments.renewDue() } : {}),
  });

  const versions = createVersionsService({ versions: createVersionsRepository(database.db, database.dialect), files: filesRepository, blobs, clock, log });
  const accountData = createAccountDataRepository(database.db);
  const profile = createProfileService({
    accounts: accountsRepository,
    passwords: { hash: hashPassword, verify: verifyPassword },
    plans,
    admins,
    clock,
    activity,
    counts: async (userId) => {
      const [usage, shareCounts] = await Promise.all([billingRecords.usageCounts(userId), shares.counts(userId)]);
      return { files: usage.files, folders: usage.folders, shares: shareCounts.shared };
    },
    passwordChanged: (user) =>
      notifications.notify(user.id, {
        type: 'password_changed',
        details: {},
        mail: (language) => passwordChangedMail({ to: user.email, at: clock.now().toISOString(), publicUrl: config.publicUrl }, language),
      }),
  });
  const accountExports = createAccountExportService({
    data: accountData,
    blobs,
    clock,
    compressionEnabled: async (userId) => (await settings.get(userId)).storage.compressionEnabled,
    accountRecord: async (userId) => {
      const [user, userSettings, current, listedShares] = await Promise.all([accounts.profile(userId), settings.get(userId), billing.current(userId), shares.list(userId)]);
      // The record is one JSON document, held whole: its shares are gathered from their pages.
      const userShares = [];
      for await (const share of listedShares) userShares.push(share);
      return { user, settings: userSettings, subscription: current.subscription, billingHistory: current.billingHistory, history: current.history, shares: userShares };
    },
  });
  const accountDeletion = createAccountDeletionService({
    data: accountData,
    blobs,
    log,
    confirmPassword: (userId, password, ip) => accounts.confirmPassword(userId, password, ip),
    endPaidSubscription: async (userId) => {
      const subscription = await billing.activeSubscription(userId);
      if (subscription) await payments.cancelNow(subscription.provider_subscription_id);
    },
  });

  return {
    config,
    database,
    accounts,
    accountTokens,
    folders,
    files,
    uploads,
    storage,
    folderArchives,
    links: createDownloadLinks(jwtSecret, clock),
    trash,
    settings,
    shares,
    mail,
    mailer,
    activity,
    notifications,
    twoFactor,
    profile,
    accountExports,
    accountDeletion,
    versions,
    analytics,
    billing,
    payments,
    localPayments,
    billingRecords,
    plans,
    blobs,
    transferBudget: createTransferBudget(config.transferMemoryBytes),
    transferPaths,
    metrics,
    close: async () => {
      await mail.drain();
      await database.close();
    },
  };
}
