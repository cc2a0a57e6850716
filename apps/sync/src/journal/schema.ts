/**
 * The journal's tables, versioned by SQLite's user_version. Other parts' tables
 * (remote_items, name_map, …) live in the same file and manage themselves.
 */
import type { SqliteDatabase } from './open-database.ts';

/** Each step takes the schema from version index to index + 1; steps are never edited once shipped. */
const STEPS: string[] = [
  `CREATE TABLE pair (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     local_dir TEXT NOT NULL, remote_path TEXT NOT NULL, server TEXT NOT NULL, email TEXT NOT NULL,
     remote_root_id TEXT
   );
   CREATE TABLE base (
     path TEXT PRIMARY KEY, kind TEXT NOT NULL, remote_id TEXT NOT NULL, size INTEGER NOT NULL,
     hash TEXT, mtime_ms REAL NOT NULL, inode TEXT NOT NULL
   ) WITHOUT ROWID;
   CREATE INDEX base_by_remote_id ON base (remote_id);
   CREATE TABLE issues (
     path TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, at TEXT NOT NULL,
     PRIMARY KEY (path, kind)
   );
   CREATE TABLE transfers (
     path TEXT PRIMARY KEY, direction TEXT NOT NULL, hash TEXT NOT NULL, size INTEGER NOT NULL,
     tus_url TEXT, tmp_path TEXT, remote_id TEXT
   );
   CREATE TABLE last_pass (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     finished_at TEXT NOT NULL, result TEXT NOT NULL, message TEXT NOT NULL, pending INTEGER NOT NULL, done INTEGER NOT NULL
   );`,
  // The drive's version (remote root and feed position) at the end of a pass where both sides held exactly the base.
  `CREATE TABLE settled (id INTEGER PRIMARY KEY CHECK (id = 1), remote_version TEXT NOT NULL);`,
  // The rows of one folder (FOLDER_OF_PATH: the path up to its last slash), read a folder at a time by the walk over an unchanged tree.
  `CREATE INDEX base_by_folder ON base (rtrim(path, replace(path, '/', '')));`,
];

/** Brings the journal's tables to the newest version; refuses a file written by a newer client. */
export function migrateJournal(db: SqliteDatabase): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > STEPS.length) {
    throw new Error(`This journal was written by a newer cloudvault (schema ${version}); update the client.`);
  }
  for (let step = version; step < STEPS.length; step += 1) {
    db.transaction(() => {
      db.exec(STEPS[step] as string);
      db.pragma(`user_version = ${step + 1}`);
    })();
  }
}
