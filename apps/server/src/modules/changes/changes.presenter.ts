import type { Change } from '@cloudvault/contract/changes';
import type { ChangesTable } from '../../db/schema.ts';

/** A journal row as the feed shows it: only the fields its op carries. */
export function presentChange(row: ChangesTable): Change {
  return {
    op: row.op,
    kind: row.kind,
    id: row.item_id,
    parentId: row.parent_id,
    name: row.name,
    at: row.at,
    ...(row.share_id !== null ? { shareId: row.share_id } : {}),
    ...(row.size !== null ? { size: Number(row.size) } : {}),
    ...(row.content_hash !== null ? { contentHash: row.content_hash } : {}),
    ...(row.modified_at !== null ? { modifiedAt: row.modified_at } : {}),
  };
}
