/**
 * Every query key of the app, so one feature can invalidate another's answers without
 * importing that feature. A key's first element names its area; invalidating a prefix
 * (`driveKeys.all`) reaches every answer under it.
 */

/** The signed-in user lives under this key (null: signed out). */
export const sessionKey = ['auth', 'profile'] as const;

/** The user's files and folders: a change that may touch several listings invalidates `all`. */
export const driveKeys = {
  all: ['drive'] as const,
  folders: (parentId: string | null) => ['drive', 'folders', parentId ?? 'root'] as const,
  files: (folderId: string | null) => ['drive', 'files', folderId ?? 'root'] as const,
  path: (folderId: string) => ['drive', 'path', folderId] as const,
  searches: ['drive', 'search'] as const,
  search: (term: string) => ['drive', 'search', term] as const,
  storage: ['drive', 'storage'] as const,
  /** The Starred and Recent views: under the drive's key, so any change to the drive refreshes them. */
  starred: ['drive', 'starred'] as const,
  recent: ['drive', 'recent'] as const,
};

/** The upload settings: a plan change invalidates them (the per-file limit moves). */
export const uploadKeys = {
  config: ['uploads', 'config'] as const,
};

export const trashKeys = {
  all: ['trash'] as const,
};

/** Files' version histories. */
export const versionKeys = {
  all: ['versions'] as const,
  ofFile: (fileId: string) => ['versions', fileId] as const,
};

/** Sharing: the owner's shares, what others shared, and public links. */
export const shareKeys = {
  mine: ['shares', 'mine'] as const,
  sharedWithMe: ['shares', 'with-me'] as const,
  /** A link as a visitor sees it; another access grant is another answer. */
  publicShare: (token: string, access: string | null) => ['shares', 'public', token, access] as const,
  publicItems: (token: string, folderId: string | null, access: string | null) =>
    ['shares', 'public', token, access, 'items', folderId] as const,
  /** (+++) What was done inside a shared folder, as its owner and members see it. */
  activity: (folderId: string) => ['shares', 'activity', folderId] as const,
};

/** The plan catalogue and the user's subscription. */
export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  current: ['billing', 'current'] as const,
  /** The subscription as a finished checkout left it (the Success screen). */
  checkout: (sessionId: string) => ['billing', 'checkout', sessionId] as const,
};

export const analyticsKeys = {
  report: ['analytics'] as const,
};

/** The header bell. */
export const notificationKeys = {
  all: ['notifications'] as const,
};

/** The Profile page's own data (the user itself lives under sessionKey). */
export const profileKeys = {
  overview: ['profile', 'overview'] as const,
};

export const settingsKeys = {
  all: ['settings'] as const,
};

/** The account's app passwords (Settings → Devices and app passwords). */
export const appPasswordKeys = {
  all: ['app-passwords'] as const,
};

/** How people sign in here (GET /api/auth/methods): read by the sign-in pages and what asks for the password. */
export const signInMethodsKey = ['auth', 'methods'] as const;

/** The account's link to the single sign-on provider (Settings › Security). */
export const singleSignOnKeys = {
  link: ['single-sign-on', 'link'] as const,
};

/** The account's passkeys (Settings › Passkeys). */
export const passkeyKeys = {
  all: ['passkeys'] as const,
};

/** The operator console: an operator's action may change any of its answers, so it invalidates `all`. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  users: (query: object) => ['admin', 'users', query] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  /** The whole log (targetId null) or one user's entries. */
  audit: (targetId: string | null) => ['admin', 'audit', targetId ?? 'all'] as const,
};
