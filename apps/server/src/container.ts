import path from 'node:path';
import type { BlobStore } from './adapters/blob-store/blob-store.ts';
import { createBlobStore, createPresignedUrls } from './adapters/blob-store/create-blob-store.ts';
import { localFilesAt } from './adapters/blob-store/local-blob-store.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createTransferBudget, type TransferBudget } from './lib/transfer-budget.ts';
import { createFailureLimiter } from './lib/failure-limiter.ts';
import { createLimitWindows } from './adapters/limit-windows/create-limit-windows.ts';
import { sharedRateLimitStore } from './lib/rate-limit-store.ts';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { hashPassword, verifyPassword } from './lib/passwords.ts';
import { loadSecret } from './lib/secrets.ts';
import { createSharedSecrets } from './db/shared-secrets.ts';
import { loadNativeAddon } from './lib/native-addon.ts';
import { createMetrics, type Metrics } from './lib/metrics.ts';
import { registerPoolMetrics } from './db/pool-metrics.ts';
import { registerJobMetrics } from './adapters/jobs/job-metrics.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createSessionTokens } from './modules/accounts/session-tokens.ts';
import { newId } from './lib/ids.ts';
import { createCopyRepository } from './modules/files/copy.repository.ts';
import { createCopyService } from './modules/files/copy.service.ts';
import { createFilesRepository } from './modules/files/files.repository.ts';
import { createFilesService } from './modules/files/files.service.ts';
import { createListingCache } from './modules/files/listing-cache.ts';
import { createDownloadLinks } from './modules/downloads/download-links.ts';
import { createDownloadResponses } from './modules/downloads/download-responses.ts';
import { createFolderArchiveService } from './modules/files/folder-archive.service.ts';
import { createStorageService } from './modules/files/storage.service.ts';
import { createUploadsService } from './modules/files/uploads.service.ts';
import { createUploadReservationsRepository } from './modules/files/upload-reservations.repository.ts';
import { createFoldersRepository } from './modules/folders/folders.repository.ts';
import { createFoldersService } from './modules/folders/folders.service.ts';
import { createTrashRepository } from './modules/trash/trash.repository.ts';
import { createTrashService } from './modules/trash/trash.service.ts';
import { createStarsRepository } from './modules/stars/stars.repository.ts';
import { createStarsService } from './modules/stars/stars.service.ts';
import { createRecentRepository } from './modules/recent/recent.repository.ts';
import { createRecentService } from './modules/recent/recent.service.ts';
import { createChangesRepository } from './modules/changes/changes.repository.ts';
import { createChangesService } from './modules/changes/changes.service.ts';
import { createChangeListeners } from './modules/changes/change-listeners.ts';
import { createChangeRetention } from './modules/changes/change-retention.ts';
import { consoleLog, type ServiceLog } from './lib/service-log.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettingsService } from './modules/settings/settings.service.ts';
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
import { createStorageAlerts } from './modules/notifications/storage-alerts.ts';
import { createStoredReaction } from './modules/files/stored-reaction.ts';
import { createSecurityAlerts } from './modules/notifications/security-alerts.ts';
import { createActivityRepository } from './modules/activity/activity.repository.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { createFolderActivityRepository } from './modules/activity/folder-activity.repository.ts';
import { createFolderActivityService, folderActivityRecorder } from './modules/activity/folder-activity.service.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createTwoFactorRepository } from './modules/two-factor/two-factor.repository.ts';
import { createTwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { createPasskeysRepository } from './modules/passkeys/passkeys.repository.ts';
import { createPasskeysService } from './modules/passkeys/passkeys.service.ts';
import { relyingPartyOf } from './modules/passkeys/relying-party.ts';
import { createProfileService } from './modules/profile/profile.service.ts';
import { createOpenIdProvider } from './modules/single-sign-on/openid-provider.ts';
import { createSingleSignOnRepository } from './modules/single-sign-on/single-sign-on.repository.ts';
import { createSingleSignOnService } from './modules/single-sign-on/single-sign-on.service.ts';
import { createAccountDataRepository } from './modules/account-data/account-data.repository.ts';
import { createAccountExportService } from './modules/account-data/account-export.service.ts';
import { createAccountDeletionService } from './modules/account-data/account-deletion.service.ts';
import { createAccountRecord } from './modules/account-data/account-record.ts';
import { createVersionsRepository } from './modules/versions/versions.repository.ts';
import { createVersionsService } from './modules/versions/versions.service.ts';
import { createAnalyticsRepository } from './modules/analytics/analytics.repository.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createShareMembersRepository } from './modules/shares/share-members.repository.ts';
import { createSharesRepository } from './modules/shares/shares.repository.ts';
import { createSharesService } from './modules/shares/shares.service.ts';
import { createPublicUploadsRepository } from './modules/shares/public-uploads.repository.ts';
import { createPublicUploadsService } from './modules/shares/public-uploads.service.ts';
import { createFileRequestNotices } from './modules/notifications/file-request-notices.service.ts';
import { createSharedWithMeService } from './modules/shares/shared-with-me.service.ts';
import { createAccountTokensRepository } from './modules/account-tokens/account-tokens.repository.ts';
import { createAccountTokensService } from './modules/account-tokens/account-tokens.service.ts';
import { presentUser } from './modules/accounts/accounts.presenter.ts';
import { createStorageUpkeepRepository } from './modules/storage-upkeep/storage-upkeep.repository.ts';
import { createStorageUpkeepService } from './modules/storage-upkeep/storage-upkeep.service.ts';
import { createJobRunner } from './adapters/jobs/create-job-runner.ts';
import type { JobRunner } from './adapters/jobs/job-runner.ts';
import { registerBackgroundJobs, registerThumbnailJobs, THUMBNAIL_JOB } from './background-jobs.ts';
import { createThumbnailMaker } from './adapters/thumbnails/thumbnail-maker.ts';
import { createThumbnailsRepository } from './modules/thumbnails/thumbnails.repository.ts';
import { createThumbnailsService } from './modules/thumbnails/thumbnails.service.ts';
import { rememberVerifiedPasswords } from './lib/verified-passwords.ts';
import { createAppPasswordsRepository } from './modules/app-passwords/app-passwords.repository.ts';
import { createAppPasswordsService } from './modules/app-passwords/app-passwords.service.ts';
import { createSyncTreeRepository } from './modules/sync/sync-tree.repository.ts';
import { createSyncTreeService } from './modules/sync/sync-tree.service.ts';
import { createSyncUploadsService } from './modules/sync/sync-uploads.service.ts';
import { createSyncDownloadsService } from './modules/sync/sync-downloads.service.ts';
import { createDavRepository } from './modules/dav/dav.repository.ts';
import { createDavLocksRepository } from './modules/dav/dav-locks.repository.ts';
import { createDavPropertiesRepository } from './modules/dav/dav-properties.repository.ts';
import { createDavTreesRepository } from './modules/dav/dav-trees.repository.ts';
import { createDavService } from './modules/dav/dav.service.ts';
import { createDavLocksService } from './modules/dav/dav-locks.service.ts';
import { createResumableStore } from './adapters/resumable-store/create-resumable-store.ts';
import { createUploadLocker } from './adapters/resumable-store/upload-locker.ts';
import { hashStoredBlob } from './adapters/blob-store/hash-stored-blob.ts';
import { digestHashState } from './adapters/blob-store/hashing-stream.ts';
import { createResumableUploadsRepository } from './modules/resumable-uploads/resumable-uploads.repository.ts';
import { createResumableUploadsService } from './modules/resumable-uploads/resumable-uploads.service.ts';
import { createTusServer } from './modules/resumable-uploads/tus-server.ts';
import { createAdminRepository } from './modules/admin/admin.repository.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import {
  FORGOT_PASSWORD_FLOOR_MS,
  type LimitPolicy,
  LISTING_CACHE_BYTES,
  PASSWORD_RESET_REQUESTS,
  PRIVATE_SHARE_INVITATIONS,
  RESUMABLE_UPLOAD_LOCK,
  SHARE_PASSWORD_FAILURES,
  LINK_UPLOADS,
  FILE_REQUEST_NOTICE_WINDOW_MS,
  SIGN_IN_FAILURES,
  THUMBNAIL_MAKING,
  THUMBNAIL_MAX_SOURCE_BYTES,
  THUMBNAILS_QUEUED_PER_COPY,
  VERIFICATION_RESENDS,
  VERIFIED_PASSWORD_MEMORY,
  WEBDAV_SIGN_IN_RECORDS,
  CHANGE_FEED,
} from './policies.ts';

/** The Stripe SDK costs memory at start-up: loaded only when Stripe is the provider. */
async function loadStripe(payments: Config['payments'], publicUrl: string): Promise<PaymentProvider> {
  if (payments.provider !== 'stripe') throw new Error('loadStripe needs the stripe payments configuration');
  const { createStripePaymentProvider } = await import('./adapters/payments/stripe-payment-provider.ts');
  return createStripePaymentProvider(payments, { publicUrl });
}

/**
 * A service called by services built before it, because it calls them too: a real cycle,
 * which no order of construction avoids. It is bound as soon as it is built and called only
 * once requests come; a call before then is a wiring mistake, and says which service.
 */
function lateBinding<T>(name: string): { (): T; bind(service: T): void } {
  let bound: T | undefined;
  const current = (): T => {
    if (bound === undefined) throw new Error(`container.ts: ${name} was called before it was built`);
    return bound;
  };
  return Object.assign(current, {
    bind(service: T) {
      bound = service;
    },
  });
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
  copies: ReturnType<typeof createCopyService>;
  storage: ReturnType<typeof createStorageService>;
  folderArchives: ReturnType<typeof createFolderArchiveService>;
  links: ReturnType<typeof createDownloadLinks>;
  /** The responses of every download route, whichever module serves it. */
  downloads: ReturnType<typeof createDownloadResponses>;
  trash: ReturnType<typeof createTrashService>;
  /** Starred files and folders (docs/api.md#starred). */
  stars: ReturnType<typeof createStarsService>;
  /** Recently opened and changed files (docs/api.md#recent). */
  recent: ReturnType<typeof createRecentService>;
  /** The change feed: pages, waits and streams (docs/api.md#change-feed). */
  changes: ReturnType<typeof createChangesService>;
  /** The sync client's routes (docs/api.md#sync): the whole tree, files in batches. */
  sync: {
    tree: ReturnType<typeof createSyncTreeService>;
    uploads: ReturnType<typeof createSyncUploadsService>;
    downloads: ReturnType<typeof createSyncDownloadsService>;
  };
  settings: ReturnType<typeof createSettingsService>;
  shares: ReturnType<typeof createSharesService>;
  activity: ReturnType<typeof createActivityService>;
  /** Who did what inside a folder, read by its owner and members (docs/decisions/0061-share-roles.md). */
  folderActivity: ReturnType<typeof createFolderActivityService>;
  notifications: ReturnType<typeof createNotificationsService>;
  twoFactor: ReturnType<typeof createTwoFactorService>;
  /** Passkeys: signing in with one, or using one as the second factor (docs/decisions/0063-passkeys.md). */
  passkeys: ReturnType<typeof createPasskeysService>;
  /** Single sign-on with the operator's OpenID provider (docs/decisions/0064-single-sign-on.md). */
  singleSignOn: ReturnType<typeof createSingleSignOnService>;
  /** App passwords, and the Basic-auth check WebDAV signs every request in with (docs/decisions/0028-app-passwords.md). */
  appPasswords: ReturnType<typeof createAppPasswordsService>;
  profile: ReturnType<typeof createProfileService>;
  accountExports: ReturnType<typeof createAccountExportService>;
  accountDeletion: ReturnType<typeof createAccountDeletionService>;
  versions: ReturnType<typeof createVersionsService>;
  /** Thumbnails made by the job runner, served to whoever may read the file (docs/decisions/0023-thumbnails.md). */
  thumbnails: ReturnType<typeof createThumbnailsService>;
  /** The storage jobs: reconciler, blob deletion, sweeper (docs/decisions/0021-crash-safe-storage.md). */
  storageUpkeep: ReturnType<typeof createStorageUpkeepService>;
  analytics: ReturnType<typeof createAnalyticsService>;
  /** The operator console (docs/decisions/0029-operator-console.md). */
  admin: ReturnType<typeof createAdminService>;
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
  /** tus uploads at /api/uploads (docs/decisions/0025-resumable-uploads.md). */
  resumableUploads: ReturnType<typeof createResumableUploadsService>;
  tus: ReturnType<typeof createTusServer>;
  /** Files visitors send through upload and edit links (issue 38). */
  publicUploads: ReturnType<typeof createPublicUploadsService>;
  /** Background jobs, registered here; main.ts starts them (tests run one with runNow). */
  jobs: JobRunner;
  /** @fastify/rate-limit's store: request limits counted by every node together (docs/decisions/0019). */
  rateLimitStore: FastifyRateLimitStoreCtor;
  /** Prometheus metrics; any part may register its own (lib/metrics.ts). Served when METRICS_TOKEN is set. */
  metrics: Metrics;
  /** WebDAV at /dav/ (docs/decisions/0027-webdav.md): My Files, its locks, and who may reach it. */
  dav: { files: ReturnType<typeof createDavService>; locks: ReturnType<typeof createDavLocksService> };
  close(): Promise<void>;
}

export async function createContainer(
  config: Config,
  options: {
    clock?: Clock;
    log?: ServiceLog;
    /** Where the limits' keys start in Redis; tests give each set of servers its own. */
    limitKeyPrefix?: string;
  } = {},
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

  const limitWindows = await createLimitWindows({
    redisUrl: config.redisUrl,
    keyPrefix: options.limitKeyPrefix ?? 'cloudvault:limits:',
    db: database.db,
    clock,
    log,
  });
  // Schedules follow the wall clock: a test's clock moves the services' time, not timers.
  // Built here so services can queue work; the jobs themselves are registered last.
  const jobs = await createJobRunner({ databaseUrl: config.databaseUrl, clock: systemClock, log });
  // The name keys the limit's windows in the shared store: every node counts under the same one.
  const limiter = (name: string, policy: LimitPolicy) => createFailureLimiter({ name, ...policy, windows: limitWindows, clock, log });
  const transferPaths = loadNativeAddon(config.nativeAddon);
  const blobs = await createBlobStore(config.storage);
  const presignedUrls =
    config.storage.driver === 's3' && config.storage.presignedDownloads ? await createPresignedUrls(config.storage) : undefined;
  const transferBudget = createTransferBudget(config.transferMemoryBytes);
  const accountsRepository = createAccountsRepository(database.db);
  // Accounts and the services around it call each other: a sign-in checks a two-factor code,
  // alerts through notifications (which read settings) and mails the verification link,
  // while settings show whether two-factor is on, turning it off confirms the password, and
  // account e-mails read the user's row. Those built before accounts call it through this.
  const accountsOnceBuilt = lateBinding<ReturnType<typeof createAccountsService>>('accounts');
  const settings = createSettingsService({
    settings: createSettingsRepository(database.db),
    twoFactorEnabled: (userId) => accountsOnceBuilt().twoFactorEnabled(userId),
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
  const securityAlerts = createSecurityAlerts({ activity, notifications, clock, publicUrl: config.publicUrl });
  const twoFactor = createTwoFactorService({
    twoFactor: createTwoFactorRepository(database.db),
    clock,
    // Loaded when first asked for: only two-factor set-up draws a code.
    qrCodeDataUrl: async (text) => (await import('qrcode')).default.toDataURL(text, { margin: 1, width: 240 }),
    activity,
    confirmPassword: (userId, password, client) => accountsOnceBuilt().confirmPassword(userId, password, client),
  });
  const passkeys = createPasskeysService({
    passkeys: createPasskeysRepository(database.db),
    accounts: {
      findUserById: (id) => accountsOnceBuilt().findUserById(id),
      signInVerified: (userId, client) => accountsOnceBuilt().signInVerified(userId, client),
      signInMethods: (userId) => accountsOnceBuilt().signInMethods(userId),
      countPasswordAttempt: (email, ip) => accountsOnceBuilt().countPasswordAttempt(email, ip),
    },
    relyingParty: relyingPartyOf(config.publicUrl),
    languageOf: async (userId) => (await settings.get(userId)).appearance.language,
    sendMail: (message) => mail.send(message),
    publicUrl: config.publicUrl,
    clock,
  });
  const admins: ReadonlySet<string> = new Set(config.adminEmails);
  const accountTokens = createAccountTokensService({
    tokens: createAccountTokensRepository(database.db),
    users: {
      findUserById: (id) => accountsOnceBuilt().findUserById(id),
      findUserByEmail: (email) => accountsOnceBuilt().findUserByEmail(email),
    },
    languageOf: async (userId) => (await settings.get(userId)).appearance.language,
    sendMail: (message) => mail.send(message),
    presentUser: (row) => presentUser(row, plans, admins),
    passwords: { hash: hashPassword },
    verificationResends: limiter('verification-resends', VERIFICATION_RESENDS),
    resetRequestsByEmail: limiter('reset-requests-by-email', PASSWORD_RESET_REQUESTS.perEmail),
    resetRequestsByIp: limiter('reset-requests-by-ip', PASSWORD_RESET_REQUESTS.perAddress),
    passwordReset: securityAlerts.passwordChanged,
    forgotPasswordFloorMs: FORGOT_PASSWORD_FLOOR_MS,
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
    loginFailuresByEmailAndIp: limiter('sign-in-failures-by-email-and-ip', SIGN_IN_FAILURES.perEmailAndAddress),
    loginFailuresByIp: limiter('sign-in-failures-by-ip', SIGN_IN_FAILURES.perAddress),
    verifySecondFactor: (user, code) => twoFactor.verify(user.id, user.totp_secret as string, code),
    verifyPasskey: passkeys.verifySecondFactor,
    signedIn: securityAlerts.signedIn,
    registered: (user) => accountTokens.sendVerification(user),
    passwordSignIn: config.passwordSignIn,
  });
  accountsOnceBuilt.bind(accounts);
  const singleSignOn = createSingleSignOnService({
    provider: config.singleSignOn ? createOpenIdProvider(config.singleSignOn, { publicUrl: config.publicUrl, clock }) : undefined,
    links: createSingleSignOnRepository(database.db),
    accounts,
    unusablePasswordHash: () => hashPassword(`${newId()}${newId()}`),
    label: config.singleSignOn?.buttonLabel ?? '',
    adminGroup: config.singleSignOn?.adminGroup,
    passwordSignIn: config.passwordSignIn,
    clock,
  });

  const appPasswords = createAppPasswordsService({
    appPasswords: createAppPasswordsRepository(database.db),
    accounts,
    // WebDAV clients send the password with every request: argon2 once, then remembered (decision 0028).
    passwords: { hash: hashPassword, verify: rememberVerifiedPasswords(verifyPassword, { ...VERIFIED_PASSWORD_MEMORY, clock }) },
    verifySecondFactor: (user, code) => twoFactor.verify(user.id, user.totp_secret as string, code),
    languageOf: async (userId) => (await settings.get(userId)).appearance.language,
    sendMail: (message) => mail.send(message),
    webDavSignIns: limiter('webdav-sign-ins', WEBDAV_SIGN_IN_RECORDS),
    signedInOverWebDav: securityAlerts.signedInOverWebDav,
    clock,
    log,
    publicUrl: config.publicUrl,
  });

  const foldersRepository = createFoldersRepository(database.db, database.dialect);
  const filesRepository = createFilesRepository(database.db, database.dialect);
  const sharesRepository = createSharesRepository(database.db);
  const shareMembers = createShareMembersRepository(database.db);
  // Someone else's folder is readable to the caller when it is shared privately with them.
  // The recipient's side of sharing answers that from the shares' queries alone, so folders,
  // which sharing is built on, is given it without a cycle.
  const sharedWithMe = createSharedWithMeService({
    shares: sharesRepository,
    members: shareMembers,
    users: { byId: accounts.findUserById },
    ownerActive: accounts.isActive,
    settingsOf: (userId) => settings.get(userId),
    clock,
  });
  // A folder's activity is written by folders, files, trash and uploads, and read through
  // folders' access check: the writer needs only the repository, so it comes first.
  const folderActivityDeps = {
    activity: createFolderActivityRepository(database.db),
    users: { byId: accounts.findUserById },
    clock,
    log,
  };
  const recordFolderActivity = folderActivityRecorder(folderActivityDeps);
  const folders = createFoldersService({
    folders: foldersRepository,
    clock,
    privateShareAccess: sharedWithMe.privateShareAccess,
    activity,
    recordFolderActivity,
  });
  const folderActivity = createFolderActivityService({ ...folderActivityDeps, readableFolder: folders.readableFolder });
  const files = createFilesService({
    files: filesRepository,
    folders,
    sharedFile: sharedWithMe.privateFileShare,
    activity,
    clock,
    listings: createListingCache({ changeStamp: database.changeStamp, maxBytes: LISTING_CACHE_BYTES }),
  });
  const changeListeners = createChangeListeners({ perAccount: CHANGE_FEED.listenersPerAccount, perNode: CHANGE_FEED.listenersPerNode });
  const changes = createChangesService({
    changes: createChangesRepository(database.db),
    listeners: changeListeners,
    keepAliveMs: CHANGE_FEED.keepAliveMs,
  });
  const stopHearingChanges = database.listenForChanges((accounts) => changeListeners.wake(accounts));
  metrics.gauge({
    name: 'cloudvault_change_listeners',
    help: 'Waiting change-feed requests and open change streams on this node',
    collect: () => changeListeners.count(),
  });
  const analytics = createAnalyticsService({ analytics: createAnalyticsRepository(database.db), planOf: accounts.planOf, clock });
  const shares = createSharesService({
    shares: sharesRepository,
    members: shareMembers,
    files,
    folders,
    users: { byId: accounts.findUserById, byEmail: accounts.findUserByEmail },
    ownerActive: accounts.isActive,
    settingsOf: (userId) => settings.get(userId),
    planOf: accounts.planOf,
    passwords: { hash: hashPassword, verify: verifyPassword },
    tokens: createShareTokens(jwtSecret, clock),
    passwordFailures: limiter('share-password-failures', SHARE_PASSWORD_FAILURES.perLinkAndAddress),
    passwordFailuresPerLink: limiter('share-password-failures-per-link', SHARE_PASSWORD_FAILURES.perLink),
    invitationsPerOwner: limiter('invitations-per-owner', PRIVATE_SHARE_INVITATIONS),
    sendMail: (message) => mail.send(message),
    notifyUser: (userId, event) => notifications.notify(userId, event),
    activity,
    countDailyDownload: (shareId) => analytics.countShareDownload(shareId),
    clock,
    publicUrl: config.publicUrl,
  });
  const storageUpkeep = createStorageUpkeepService({
    upkeep: createStorageUpkeepRepository(database.db, database.dialect),
    blobs,
    clock,
    log,
    sweepGraceMs: config.sweepGraceMs,
  });
  const thumbnails = createThumbnailsService({
    thumbnails: createThumbnailsRepository(database.db),
    files,
    shares,
    blobs,
    maker: createThumbnailMaker(THUMBNAIL_MAKING),
    enqueue: (fileId) => jobs.enqueue(THUMBNAIL_JOB, { fileId }, { singletonKey: fileId }),
    workDir: path.join(config.dataDir, 'thumbnail-work'),
    concurrency: config.thumbnailConcurrency,
    maxSourceBytes: THUMBNAIL_MAX_SOURCE_BYTES,
    clock,
    log,
  });
  const storedReaction = createStoredReaction({
    activity,
    usageChanged: createStorageAlerts({ notifications, users: accounts, publicUrl: config.publicUrl }),
    requestThumbnail: (file) => thumbnails.requestFor(file),
    thumbnailsPerCopy: THUMBNAILS_QUEUED_PER_COPY,
    log,
  });
  const uploads = createUploadsService({
    files: filesRepository,
    reservations: createUploadReservationsRepository(database.db, database.dialect),
    leaseMs: config.uploadLeaseMs,
    deleteQueuedBlobs: (keys) => storageUpkeep.deleteQueuedBlobs(keys),
    folders,
    blobs,
    plans,
    planIdOf: accounts.planIdOf,
    clock,
    uploaded: storedReaction.uploaded,
    recordFolderActivity: folderActivity.record,
  });
  const publicUploads = createPublicUploadsService({
    links: shares,
    uploads,
    folders,
    rows: createPublicUploadsRepository(database.db),
    notices: createFileRequestNotices({ settingsOf: (userId) => settings.get(userId), clock, windowMs: FILE_REQUEST_NOTICE_WINDOW_MS }),
    uploadsPerVisitor: limiter('link-uploads-per-visitor', LINK_UPLOADS.perLinkAndAddress),
    uploadsPerLink: limiter('link-uploads-per-link', LINK_UPLOADS.perLink),
    recordFolderActivity: folderActivity.record,
    clock,
    log,
  });
  const copies = createCopyService({
    copies: createCopyRepository(database.db, database.dialect),
    files,
    folders,
    uploads,
    blobs,
    copied: storedReaction.copied,
    recordFolderActivity: folderActivity.record,
    clock,
    newId,
  });
  const storage = createStorageService({ files: filesRepository, plans, planIdOf: accounts.planIdOf });
  const trash = createTrashService({
    trash: createTrashRepository(database.db, database.dialect),
    deleteQueuedBlobs: (keys) => storageUpkeep.deleteQueuedBlobs(keys),
    clock,
    retentionOf: async (userId) => (await settings.get(userId)).storage,
    usersWithAutoDelete: settings.usersWithAutoDelete,
    files,
    folders,
    activity,
    recordFolderActivity,
  });

  const folderArchives = createFolderArchiveService({
    folders,
    files: filesRepository,
    blobs,
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
    customerDetails: accounts.customerDetails,
    shareCounts: (userId) => shares.counts(userId),
    planChanged: (userId, change) => activity.record(userId, 'plan_change', change),
    log,
    ...(localPayments ? { dueRenewals: () => localPayments.renewDue() } : {}),
  });

  const versions = createVersionsService({
    versions: createVersionsRepository(database.db, database.dialect),
    files,
    deleteQueuedBlobs: (keys) => storageUpkeep.deleteQueuedBlobs(keys),
    recordFolderActivity: folderActivity.record,
    clock,
  });
  const accountData = createAccountDataRepository(database.db);
  const profile = createProfileService({
    accounts,
    passwords: { hash: hashPassword, verify: verifyPassword },
    plans,
    admins,
    clock,
    activity,
    usageCounts: billingRecords.usageCounts,
    shareCounts: shares.counts,
    appPasswordCount: appPasswords.count,
    passwordChanged: securityAlerts.passwordChanged,
  });
  const accountExports = createAccountExportService({
    data: accountData,
    blobs,
    clock,
    compressionEnabled: async (userId) => (await settings.get(userId)).storage.compressionEnabled,
    accountRecord: createAccountRecord({ accounts, settings, billing, shares }),
  });
  const accountDeletion = createAccountDeletionService({
    data: accountData,
    deleteQueuedBlobs: () => storageUpkeep.deleteQueuedBlobs(),
    log,
    confirmPassword: (userId, password, client) => accounts.confirmPassword(userId, password, client),
    endPaidSubscription: billing.endPaidSubscription,
    clock,
  });

  // tus uploads: locks through the shared limit store, so any node takes an upload's next PATCH.
  const resumableStore = await createResumableStore(config.storage);
  const uploadLocker = createUploadLocker(limitWindows, RESUMABLE_UPLOAD_LOCK);
  const resumableUploads = createResumableUploadsService({
    uploads,
    files,
    rows: createResumableUploadsRepository(database.db),
    bytesComplete: (key, length) => resumableStore.isComplete(key, length),
    finishBytes: (key, length) => resumableStore.finish(key, length),
    removeBytes: (key) => resumableStore.remove(key),
    hashBlob: (key) => hashStoredBlob(blobs, key),
    digest: digestHashState,
    withLock: async (key, work) => {
      const lock = uploadLocker.newLock(`finish:${key}`);
      await lock.lock(new AbortController().signal, () => {});
      try {
        return await work();
      } finally {
        await lock.unlock();
      }
    },
    clock,
  });
  const tus = createTusServer({ store: resumableStore, locker: uploadLocker, uploads: resumableUploads, log });

  registerBackgroundJobs(jobs, {
    purgeExpiredTrash: () => trash.purgeExpired(),
    purgeExpiredVersions: () => versions.purgeExpired(),
    snapshotStorage: () => analytics.snapshotStorage(),
    runRenewals: localPayments ? () => billing.runRenewals() : undefined,
    deliverDueMail: () => mail.deliverDue(),
    reconcileStorage: () => storageUpkeep.reconcile(),
    deleteQueuedBlobs: () => storageUpkeep.deleteQueuedBlobs(),
    sweepStorage: () => storageUpkeep.sweep(),
    expireResumableUploads: () => resumableUploads.expire(),
    endExpiredComplimentaryPlans: () => billing.endExpiredComplimentary(),
    pruneChangeFeed: () => createChangeRetention({ db: database.db, clock }).prune(),
  });
  registerThumbnailJobs(jobs, thumbnails);
  registerJobMetrics(metrics, jobs);
  const admin = createAdminService({
    admin: createAdminRepository(database.db),
    accounts,
    billing,
    accountTokens,
    deleteAccount: accountDeletion.deleteAccountAsOperator,
    health: { database: database.ping, blobStore: () => blobs.ping(), mailQueue: mail.queueDepth, jobs: () => jobs.stats() },
    plans,
    admins,
    clock,
    log,
  });

  const davRepository = createDavRepository(database.db);
  const davLocks = createDavLocksService({ dav: davRepository, grants: createDavLocksRepository(database.db, database.dialect), clock });
  const dav = {
    files: createDavService({
      dav: davRepository,
      properties: createDavPropertiesRepository(database.db, database.dialect),
      trees: createDavTreesRepository(database.db),
      locks: davLocks,
      folders,
      files,
      trash,
      uploads,
      storage,
      blobs,
      planOf: async (userId: string) => plans.get(await accounts.planIdOf(userId)),
      sharedWithMe,
      clock,
    }),
    locks: davLocks,
  };

  return {
    config,
    database,
    accounts,
    accountTokens,
    folders,
    files,
    uploads,
    copies,
    storage,
    folderArchives,
    links: createDownloadLinks(jwtSecret, clock, accounts.isActive),
    // Only blobs on this machine's disk can go out with sendfile.
    downloads: createDownloadResponses({
      blobs,
      budget: transferBudget,
      localFiles: config.storage.driver === 'local' ? localFilesAt(config.storage.root) : undefined,
      // S3_PRESIGNED_DOWNLOADS: files go from the bucket to the client (docs/decisions/0022).
      presignedUrls,
      clock,
    }),
    trash,
    stars: createStarsService({ stars: createStarsRepository(database.db), clock }),
    recent: createRecentService({ recent: createRecentRepository(database.db), clock }),
    changes,
    sync: {
      tree: createSyncTreeService({ tree: createSyncTreeRepository(database.db), folders, changes }),
      uploads: createSyncUploadsService({ uploads, uploadedMany: storedReaction.uploadedMany }),
      downloads: createSyncDownloadsService({ files, blobs }),
    },
    settings,
    shares,
    mail,
    mailer,
    activity,
    folderActivity,
    notifications,
    twoFactor,
    passkeys,
    singleSignOn,
    appPasswords,
    profile,
    accountExports,
    accountDeletion,
    versions,
    thumbnails,
    storageUpkeep,
    resumableUploads,
    tus,
    publicUploads,
    analytics,
    admin,
    billing,
    payments,
    localPayments,
    billingRecords,
    plans,
    blobs,
    transferBudget,
    transferPaths,
    jobs,
    rateLimitStore: sharedRateLimitStore({ windows: limitWindows, clock, log }),
    metrics,
    dav,
    close: async () => {
      await stopHearingChanges();
      await jobs.stop();
      await mail.drain();
      await limitWindows.close();
      await database.close();
    },
  };
}
