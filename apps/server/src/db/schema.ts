/**
 * Table types as Kysely sees them. Portable storage choices (docs/decisions/0002):
 * timestamps are ISO 8601 UTC strings, booleans are integers 0/1, sizes are bigint
 * read back as numbers on both SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  plan_id: string;
  storage_used: number;
  two_factor_enabled: number;
  /** Base32 TOTP secret once two-factor is on. */
  totp_secret: string | null;
  /** Set up but not yet confirmed with a code. */
  totp_pending_secret: string | null;
  /** When a link mailed to the address was opened; null until then (private shares need it). */
  email_verified_at: string | null;
  /** The last TOTP time step (30-second counter) accepted: no code of it or before works again. */
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
  /** When an operator suspended the account; null while active (docs/decisions/0029-operator-console.md). */
  suspended_at?: string | null;
  /** The newest sign-in or registration; never empty once set (the column defaults to ''). */
  last_sign_in_at?: string;
  /** `admin` when granted with `npm run admin -- grant`; ADMIN_EMAILS also makes admins. */
  role?: string;
  /** 0 for an account made through single sign-on until a password is set: its hash is unusable. */
  password_set?: number;
  /** 1 while the provider's last sign-in put the user in OIDC_ADMIN_GROUP. */
  single_sign_on_operator?: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
  /** The app password a sync client's session was opened with (it ends with it); null for a sign-in. */
  app_password_id?: string | null;
  /** When the single sign-on provider last had this session's user sign in again (it stands in for a password). */
  reauthenticated_at?: string | null;
}

export interface FoldersTable {
  id: string;
  user_id: string;
  parent_id: string | null;
  name: string;
  /** nameKey(name) (contract validation): what the unique index compares. Written by the repositories with every name. */
  name_key?: string;
  /** naturalSortKey(name) (contract sort-keys): what sorted listings order by. Written with every name (db/name-keys.ts). */
  sort_key?: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  trashed_root: number;
  /** Who put it in Trash when not its owner (an editor of a shared folder); null otherwise (migration 31). */
  deleted_by?: string | null;
  /** Changes whenever anything below the folder changes (db/change-journal.ts); a WebDAV getetag. */
  tree_tag?: string;
}

export interface FilesTable {
  id: string;
  user_id: string;
  folder_id: string | null;
  name: string;
  /** nameKey(name) (contract validation): what the unique index compares. Written by the repositories with every name. */
  name_key?: string;
  /** naturalSortKey(name) (contract sort-keys): what sorted listings order by. Written with every name (db/name-keys.ts). */
  sort_key?: string;
  mimetype: string;
  category: string;
  size: number;
  sha256: string;
  crc32: number;
  blob_key: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  trashed_root: number;
  /** Who put it in Trash when not its owner (an editor of a shared folder); null otherwise (migration 31). */
  deleted_by?: string | null;
  // listing_entry (the row's FileItem as JSON text) is written by triggers only (migration
  // 08) and read only through sqlFolderListingEntries, so it is left out of this type.
}

export interface UserSettingsTable {
  user_id: string;
  /** JSON of the settings object as last saved. */
  data: string;
  updated_at: string;
}

export interface BillingCustomersTable {
  user_id: string;
  provider: string;
  customer_id: string;
  created_at: string;
}

export interface SubscriptionsTable {
  provider_subscription_id: string;
  user_id: string;
  provider: string;
  customer_id: string;
  plan_id: string;
  status: string;
  cancel_at_period_end: number;
  current_period_start: string;
  current_period_end: string;
  /** When its first invoice was paid: the 30-day refund window starts here. */
  first_paid_at: string | null;
  created_at: string;
  updated_at: string;
  /** Until when a renewal run holds it (null: never claimed); only renewals write it. */
  renewal_claimed_until?: string | null;
  /** Complimentary plans (provider `complimentary`) only: why and by which operator. */
  grant_reason?: string | null;
  granted_by?: string | null;
}

export interface InvoicesTable {
  provider_invoice_id: string;
  user_id: string;
  provider_subscription_id: string | null;
  amount_cents: number;
  currency: string;
  status: string;
  invoice_url: string | null;
  payment_ref: string | null;
  refund_of: string | null;
  created_at: string;
}

export interface SubscriptionHistoryTable {
  id: string;
  user_id: string;
  type: string;
  plan_id: string;
  created_at: string;
}

export interface PaymentEventsTable {
  id: string;
  type: string;
  received_at: string;
}

export interface LocalCheckoutSessionsTable {
  id: string;
  user_id: string;
  kind: 'checkout' | 'portal';
  plan_id: string | null;
  customer_id: string;
  return_url: string | null;
  status: 'open' | 'completed' | 'canceled';
  created_at: string;
  expires_at: string;
}

export interface SharesTable {
  id: string;
  user_id: string;
  kind: 'link' | 'private';
  file_id: string | null;
  folder_id: string | null;
  /** SHA-256 of the link's token (links only). */
  token_hash: string | null;
  /** Normalised recipient (private shares only). */
  email: string | null;
  password_hash: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  download_count: number;
  created_at: string;
  /**
   * What the share lets its holder do (migration 31): private `viewer` | `editor`; link
   * `view` | `view-only` | `upload` | `edit` (docs/decisions/0061-share-roles.md). This and
   * the next columns have defaults: optional here, as rows written before them had none.
   */
  role?: string;
  /** 1 when a person it is shared with may share it further. */
  may_reshare?: number;
  /** Downloads after which a link answers 410; null: no limit. */
  download_limit?: number | null;
  /** Files received through an upload or edit link. */
  upload_count?: number;
  /** An upload link's message to its visitors. */
  message?: string | null;
}

export interface MailQueueTable {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
  /** The Message-ID header given when queued, the same on every attempt; null for messages queued before it was kept. */
  message_id: string | null;
}

export interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 of the code: the codes are shown once and never stored readable. */
  code_hash: string;
  used_at: string | null;
}

export interface ActivityTable {
  id: string;
  user_id: string;
  type: string;
  details: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: string;
  details: string;
  read_at: string | null;
  created_at: string;
}

export interface FileVersionsTable {
  id: string;
  file_id: string;
  user_id: string;
  mimetype: string;
  size: number;
  sha256: string;
  crc32: number;
  blob_key: string;
  created_at: string;
  replaced_at: string;
}

export interface StorageDailyTable {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  bytes: number;
}

/** Every account's storage at the end of a day (the sum of that day's storage_daily rows), for the operator console. */
export interface StorageDailyTotalsTable {
  day: string;
  bytes: number;
}

/** Who did what inside an owner's folder (migration 31); read over a shared folder's subtree. */
export interface FolderActivityTable {
  id: string;
  owner_id: string;
  /** The folder the item was in (for a move, the folder it went to). */
  folder_id: string;
  /** The account that did it; null for a link's visitor. */
  actor_id: string | null;
  /** The actor's name at the time: an account's name, or what a link's visitor typed. */
  actor_name: string;
  action: string;
  item_kind: 'file' | 'folder';
  item_name: string;
  /** JSON object: e.g. the old name of a rename. */
  details: string;
  created_at: string;
}

/** A tus upload through an upload or edit link (migration 32): its link, who sent it, and whether it was counted. */
export interface LinkUploadsTable {
  /** The resumable upload's id (resumable_uploads.id), whose row holds the owner. */
  upload_id: string;
  share_id: string;
  uploader_name: string | null;
  /** 1 once the finished file was counted on the link and told to the owner. */
  counted: number;
  created_at: string;
}

export interface ShareDownloadsDailyTable {
  share_id: string;
  day: string;
  count: number;
}

export interface AccountTokensTable {
  /** SHA-256 of the token mailed to the user: the token itself is never stored. */
  token_hash: string;
  user_id: string;
  purpose: AccountTokenPurpose;
  email: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type AccountTokenPurpose = 'verify_email' | 'reset_password';

/** One fixed window of a rate limit or failure counter (adapters/limit-windows). */
export interface LimitWindowsTable {
  key: string;
  count: number;
  /** ISO time the window ends; a window that has ended counts nothing. */
  ends_at: string;
  /** Who holds a window taken as a lease (LimitWindows.takeLease); null for counters. */
  holder: string | null;
}

/** Secrets every node sharing the database must use alike, created once (lib/secrets.ts). */
export interface SharedSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** An upload in progress (docs/decisions/0021-crash-safe-storage.md): its bytes count in storage_used while its lease runs. */
export interface UploadReservationsTable {
  id: string;
  user_id: string;
  bytes: number;
  blob_key: string;
  /** ISO time; the uploading node renews it, and once past it any node gives the bytes back. */
  lease_until: string;
  created_at: string;
}

/** Blobs no row references any more, waiting for their bytes to be deleted. */
export interface BlobDeletionsTable {
  blob_key: string;
}

/** A blob's thumbnails (docs/decisions/0023-thumbnails.md): made once, or a failure kept so it is not retried forever. */
export interface ThumbnailsTable {
  /** The source blob (a file's or a version's content). */
  blob_key: string;
  status: 'ready' | 'failed';
  /** The WebP thumbnails' own blobs, when ready: at most 256 and 1280 px on the long side. */
  small_key: string | null;
  large_key: string | null;
  attempts: number;
  error: string | null;
  updated_at: string;
}

/** A user's app password for WebDAV clients (docs/decisions/0028-app-passwords.md). */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the normalised secret: shown once, never stored readable. */
  secret_hash: string;
  created_at: string;
  /** Updated at most once a minute, so a syncing client does not write on every request. */
  last_used_at: string | null;
}

/** A WebDAV dead property (docs/decisions/0027-webdav.md). */
export interface DavPropertiesTable {
  user_id: string;
  /** The file's or folder's id, or "/" for the root. */
  resource_id: string;
  file_id: string | null;
  folder_id: string | null;
  namespace: string;
  name: string;
  /** The property's content as XML. */
  value: string;
}

/** A WebDAV write lock, shared by every node (docs/decisions/0027-webdav.md). */
export interface DavLocksTable {
  token: string;
  user_id: string;
  /** The locked path, segments lower-cased ("/" for the root). */
  path_key: string;
  /** The locked path as the client named it. */
  href: string;
  depth_infinity: number;
  exclusive: number;
  owner: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

/** A tus upload (docs/decisions/0025-resumable-uploads.md). */
export interface ResumableUploadsTable {
  id: string;
  user_id: string;
  reservation_id: string;
  folder_id: string | null;
  file_name: string;
  file_type: string | null;
  length: number;
  hashed_bytes: number;
  sha256_state: string | null;
  crc32: number;
  file_id: string | null;
  created_at: string;
  expires_at: string;
  /** What the client chose for a taken name (migration 2026-12-06-27); null: the plan's default. */
  conflict: string | null;
  /** The editor who sends an upload into the owner's (user_id's) shared folder (migration 33); null: the owner. */
  uploader_id: string | null;
}

/** The operator console's append-only log (docs/decisions/0029-operator-console.md); no foreign keys, so entries outlive their users. */
export interface AdminAuditTable {
  id: string;
  /** Null for the command line (`npm run admin`). */
  admin_id: string | null;
  action: string;
  target_id: string;
  /** JSON text. */
  details: string;
  created_at: string;
}

/** A starred file or folder: exactly one of file_id and folder_id (migration 2026-12-06-28). */
export interface StarsTable {
  user_id: string;
  file_id: string | null;
  folder_id: string | null;
  created_at: string;
}

/** When the owner last opened a file through the app, written at most once a minute (migration 2026-12-06-28). */
export interface FileOpensTable {
  file_id: string;
  user_id: string;
  opened_at: string;
}

/** One entry of an account's change feed (migration 29, db/change-journal.ts). */
export interface ChangesTable {
  user_id: string;
  seq: number;
  op: 'created' | 'updated' | 'moved' | 'deleted' | 'restored';
  kind: 'file' | 'folder';
  item_id: string;
  parent_id: string | null;
  name: string;
  /** The private share through which the feed's account sees the item; null in the owner's feed. */
  share_id: string | null;
  size: number | null;
  content_hash: string | null;
  modified_at: string | null;
  at: string;
}

/** Per account: the last change number given and the last one the retention job removed. */
export interface ChangeHeadsTable {
  user_id: string;
  seq: number;
  pruned_through: number;
}

/** An account's identity at the OpenID provider: (issuer, subject) names one account. */
export interface SingleSignOnLinksTable {
  issuer: string;
  subject: string;
  user_id: string;
  /** The address the provider gave when the link was made or last used. */
  email: string;
  created_at: string;
  last_used_at: string;
}

/** A sign-in at the provider under way; single use, found by the id in the browser's cookie. */
export interface SingleSignOnFlowsTable {
  id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  /** Where in the app the browser goes afterwards (a same-origin path). */
  next_path: string;
  /** The session asking to confirm who it is (re-authentication); null for a sign-in. */
  reauth_session_id: string | null;
  expires_at: string;
}

/** The one-time code the web app exchanges for its session token after a sign-in at the provider. */
export interface SingleSignOnHandoffsTable {
  code_hash: string;
  user_id: string;
  /** The flow cookie's id, hashed: only the browser that began the sign-in may finish it. */
  browser_hash: string;
  expires_at: string;
}

/** A user's passkey (docs/decisions/0063-passkeys.md): a WebAuthn credential that signs in without a password. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** The credential's id as the authenticator made it, base64url: a discoverable sign-in finds the account by it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at its last use (bigint: a string on PostgreSQL). */
  counter: number | string | bigint;
  /** How the browser reached it (usb, internal, hybrid...), comma-separated; offered back when the user adds another. */
  transports: string;
  /** `singleDevice` or `multiDevice` (synced), as the library reports it. */
  device_type: string;
  /** 1 when a synced passkey says it is backed up. */
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A passkey registration or sign-in under way: its challenge, used once, for 5 minutes at most. */
export interface PasskeyCeremoniesTable {
  id: string;
  /** `registration` or `authentication`. */
  kind: string;
  /** Who is adding a passkey; null for a sign-in (the passkey names its account). */
  user_id: string | null;
  challenge: string;
  expires_at: string;
}

export interface Database {
  single_sign_on_links: SingleSignOnLinksTable;
  single_sign_on_flows: SingleSignOnFlowsTable;
  single_sign_on_handoffs: SingleSignOnHandoffsTable;
  users: UsersTable;
  sessions: SessionsTable;
  folders: FoldersTable;
  files: FilesTable;
  user_settings: UserSettingsTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  subscription_history: SubscriptionHistoryTable;
  payment_events: PaymentEventsTable;
  local_checkout_sessions: LocalCheckoutSessionsTable;
  shares: SharesTable;
  mail_queue: MailQueueTable;
  recovery_codes: RecoveryCodesTable;
  activity: ActivityTable;
  notifications: NotificationsTable;
  file_versions: FileVersionsTable;
  storage_daily: StorageDailyTable;
  share_downloads_daily: ShareDownloadsDailyTable;
  account_tokens: AccountTokensTable;
  limit_windows: LimitWindowsTable;
  shared_secrets: SharedSecretsTable;
  upload_reservations: UploadReservationsTable;
  blob_deletions: BlobDeletionsTable;
  thumbnails: ThumbnailsTable;
  app_passwords: AppPasswordsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  resumable_uploads: ResumableUploadsTable;
  admin_audit: AdminAuditTable;
  storage_daily_totals: StorageDailyTotalsTable;
  stars: StarsTable;
  file_opens: FileOpensTable;
  changes: ChangesTable;
  change_heads: ChangeHeadsTable;
  folder_activity: FolderActivityTable;
  link_uploads: LinkUploadsTable;
  passkeys: PasskeysTable;
  passkey_ceremonies: PasskeyCeremoniesTable;
}
