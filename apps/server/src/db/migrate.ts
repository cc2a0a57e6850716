import { type Kysely, type Migration, Migrator } from 'kysely';
import * as accounts from './migrations/2026-11-22-01-accounts.ts';
import * as files from './migrations/2026-11-22-02-files.ts';
import * as settings from './migrations/2026-11-22-03-settings.ts';
import * as billing from './migrations/2026-11-22-04-billing.ts';
import * as shares from './migrations/2026-11-22-05-shares.ts';
import * as accountSecurity from './migrations/2026-11-22-06-account-security.ts';
import * as versionsAnalytics from './migrations/2026-11-22-07-versions-analytics.ts';
import { listingEntriesMigration } from './migrations/2026-11-22-08-listing-entries.ts';
import * as emailVerification from './migrations/2026-11-24-09-email-verification.ts';
import * as securityReview from './migrations/2026-11-24-10-security-review.ts';
import * as jobs from './migrations/2026-11-24-12-jobs.ts';
import * as sharedLimits from './migrations/2026-11-24-13-shared-limits.ts';
import * as sharedSecrets from './migrations/2026-11-24-14-shared-secrets.ts';
import * as crashSafeStorage from './migrations/2026-11-24-15-crash-safe-storage.ts';
import { thumbnailsMigration } from './migrations/2026-11-24-16-thumbnails.ts';
import * as resumableUploads from './migrations/2026-11-24-17-resumable-uploads.ts';
import * as appPasswords from './migrations/2026-11-24-18-app-passwords.ts';
import * as webdav from './migrations/2026-11-24-19-webdav.ts';
import { operatorConsoleMigration } from './migrations/2026-11-24-20-operator-console.ts';
import { fileNameSearchMigration } from './migrations/2026-11-24-21-file-name-search.ts';
import * as trashAtScale from './migrations/2026-11-24-22-trash-at-scale.ts';
import { fileNameSearchWalkMigration } from './migrations/2026-11-24-23-file-name-search-walk.ts';
import { namesMigration } from './migrations/2026-12-05-24-names.ts';
import * as limitWindowHolders from './migrations/2026-12-05-25-limit-window-holders.ts';
import { listingSortKeysMigration } from './migrations/2026-12-06-26-listing-sort-keys.ts';
import * as uploadConflict from './migrations/2026-12-06-27-upload-conflict.ts';
import * as starredRecent from './migrations/2026-12-06-28-starred-recent.ts';
import * as changeJournal from './migrations/2026-12-06-29-change-journal.ts';
import { contentHashInListingsMigration } from './migrations/2026-12-06-30-content-hash-in-listings.ts';
import * as shareRoles from './migrations/2026-12-07-31-share-roles.ts';
import * as linkUploads from './migrations/2026-12-07-32-link-uploads.ts';
import * as resumableUploader from './migrations/2026-12-07-33-resumable-uploader.ts';
import * as deviceSessions from './migrations/2026-12-08-34-device-sessions.ts';
import * as passkeys from './migrations/2026-12-09-35-passkeys.ts';
import * as singleSignOn from './migrations/2026-12-09-36-single-sign-on.ts';
import type { Dialect } from './database.ts';

/** Every migration, in order. Migrations are frozen once released: add, never edit. */
export const migrationsFor = (dialect: Dialect): Record<string, Migration> => ({
  '2026-11-22-01-accounts': accounts,
  '2026-11-22-02-files': files,
  '2026-11-22-03-settings': settings,
  '2026-11-22-04-billing': billing,
  '2026-11-22-05-shares': shares,
  '2026-11-22-06-account-security': accountSecurity,
  '2026-11-22-07-versions-analytics': versionsAnalytics,
  '2026-11-22-08-listing-entries': listingEntriesMigration(dialect),
  '2026-11-24-09-email-verification': emailVerification,
  '2026-11-24-10-security-review': securityReview,
  '2026-11-24-12-jobs': jobs,
  '2026-11-24-13-shared-limits': sharedLimits,
  '2026-11-24-14-shared-secrets': sharedSecrets,
  '2026-11-24-15-crash-safe-storage': crashSafeStorage,
  '2026-11-24-16-thumbnails': thumbnailsMigration(dialect),
  '2026-11-24-17-resumable-uploads': resumableUploads,
  '2026-11-24-18-app-passwords': appPasswords,
  '2026-11-24-19-webdav': webdav,
  '2026-11-24-20-operator-console': operatorConsoleMigration(dialect),
  '2026-11-24-21-file-name-search': fileNameSearchMigration(dialect),
  '2026-11-24-22-trash-at-scale': trashAtScale,
  '2026-11-24-23-file-name-search-walk': fileNameSearchWalkMigration(dialect),
  '2026-12-05-24-names': namesMigration(dialect),
  '2026-12-05-25-limit-window-holders': limitWindowHolders,
  '2026-12-06-26-listing-sort-keys': listingSortKeysMigration(dialect),
  '2026-12-06-27-upload-conflict': uploadConflict,
  '2026-12-06-28-starred-recent': starredRecent,
  '2026-12-06-29-change-journal': changeJournal,
  '2026-12-06-30-content-hash-in-listings': contentHashInListingsMigration(dialect),
  '2026-12-07-31-share-roles': shareRoles,
  '2026-12-07-32-link-uploads': linkUploads,
  '2026-12-07-33-resumable-uploader': resumableUploader,
  '2026-12-08-34-device-sessions': deviceSessions,
  '2026-12-09-35-passkeys': passkeys,
  '2026-12-09-36-single-sign-on': singleSignOn,
});

/** Brings the schema up to date; the Migrator's lock lets several servers start at once. */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
