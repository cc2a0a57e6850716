import type { ComponentType } from 'react';
import type { FileViewerProps } from '../../lib/file-source';

/** The full-screen file viewer, passed in by the app (app/routes): a feature never imports another. */
export type ViewerSlot = ComponentType<FileViewerProps>;
