import type { ComponentType } from 'react';
import type { FileViewerProps } from '../../lib/file-source';

/** The full-screen file viewer, passed in by the app (app/routes): a feature never imports another. */
export type ViewerSlot = ComponentType<FileViewerProps>;

/**
 * (+++) A folder shared with the user as an editor, opened in the file manager (features/dashboard)
 * with the shared folder `rootId` as its top; passed in by the app.
 */
export type EditorFolderSlot = ComponentType<{ rootId: string }>;
