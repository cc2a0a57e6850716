import type { DavHandler } from '../dav-responses.ts';
import { type TransferDeps, transferHandler } from './transfer.ts';

/** MOVE: a file, or a folder with everything in it (only Depth: infinity, RFC 4918 section 9.9.2). */
export const moveHandler = (deps: TransferDeps): DavHandler =>
  transferHandler(deps, { method: 'MOVE', collectionDepths: ['infinity'], sourceChanges: true });
