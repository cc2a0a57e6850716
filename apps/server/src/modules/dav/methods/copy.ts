import type { DavHandler } from '../dav-responses.ts';
import { type TransferDeps, transferHandler } from './transfer.ts';

/** COPY: a file, or a folder with its members (Depth: infinity) or alone (Depth: 0), RFC 4918 section 9.8.3. */
export const copyHandler = (deps: TransferDeps): DavHandler =>
  transferHandler(deps, { method: 'COPY', collectionDepths: ['infinity', '0'], sourceChanges: false });
