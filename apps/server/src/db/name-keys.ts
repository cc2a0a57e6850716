import { nameKey } from '@cloudvault/contract/validation';

/**
 * A file's or folder's columns with the key of the name they set, if they set one: every
 * write of `name` writes `name_key` beside it (migration 2026-12-05-24), which the unique
 * indexes and every lookup by name compare (docs/decisions/0038-name-normalisation.md).
 */
export function withNameKey<T extends { name?: string }>(columns: T): T & { name_key?: string } {
  return columns.name === undefined ? columns : { ...columns, name_key: nameKey(columns.name) };
}
