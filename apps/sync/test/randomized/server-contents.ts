import SqliteDatabase from 'better-sqlite3';

/**
 * Every content the server still holds anywhere, by SHA-256: live files, files in Trash
 * (deleted alone or inside a deleted folder) and earlier versions. Read from the stopped
 * server's SQLite file: the API lists a deleted folder's contents nowhere, and a content kept
 * in Trash or as a version is as safe as a live one.
 */
export function serverContents(databaseFile: string): Set<string> {
  const database = new SqliteDatabase(databaseFile);
  try {
    const rows = database.prepare('SELECT sha256 FROM files UNION SELECT sha256 FROM file_versions').all() as { sha256: string }[];
    return new Set(rows.map((row) => row.sha256));
  } finally {
    database.close();
  }
}
