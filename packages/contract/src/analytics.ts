import { Type, type Static } from 'typebox';
import { Id, NullableId } from './common.ts';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** Business analytics: where the space and the downloads go. */
export const AnalyticsResponse = Type.Object({
  /** Storage used at the end of each day with a figure, oldest first, the last 90 days. */
  storageHistory: Type.Array(Type.Object({ day: Day, bytes: Type.Integer() })),
  byCategory: Type.Array(Type.Object({ category: Type.String(), files: Type.Integer(), bytes: Type.Integer() })),
  largestFiles: Type.Array(Type.Object({ id: Id, name: Type.String(), size: Type.Integer(), folderId: NullableId })),
  /** Folders by the size of everything under them. */
  largestFolders: Type.Array(Type.Object({ id: Id, name: Type.String(), bytes: Type.Integer(), parentId: NullableId })),
  shareDownloads: Type.Array(
    Type.Object({
      shareId: Id,
      name: Type.String(),
      total: Type.Integer(),
      days: Type.Array(Type.Object({ day: Day, count: Type.Integer() })),
    }),
  ),
});
export type AnalyticsResponse = Static<typeof AnalyticsResponse>;
