import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataStore } from '@tus/utils';
import { createHashingStream, type HashState, hashStatesResumable } from '../../adapters/blob-store/hashing-stream.ts';

/** Where an upload's hash stands, as saved after its last PATCH. */
export interface HashStates {
  load(key: string): Promise<HashState | undefined>;
  /** Saves `state` unless another write moved the saved one from `fromBytes` meanwhile. */
  save(key: string, fromBytes: number, state: HashState): Promise<void>;
}

/**
 * Hashes each PATCH's bytes on their way into the store, going on from the state the last
 * PATCH saved (on whichever node), so finishing needs no second read of the upload
 * (docs/decisions/0025-resumable-uploads.md). Runs under the upload's lock, as tus writes do.
 * When the saved state does not match the offset (a write that failed half-way, the
 * portable path), the bytes are stored unhashed and finishing reads the blob once instead.
 */
export function hashWrites(datastore: DataStore, deps: { keyOf(storeId: string): string; states: HashStates }): void {
  const write = datastore.write.bind(datastore);
  datastore.write = async (stream: Readable, storeId: string, offset: number) => {
    const key = deps.keyOf(storeId);
    const saved = hashStatesResumable() ? await deps.states.load(key) : undefined;
    const from = saved && saved.bytes === offset && (offset === 0 || saved.sha256State) ? saved : undefined;
    if (!from) return write(stream, storeId, offset);
    // The PATCH body's chunks are nobody else's: the local store's durable writer frees each
    // once it is also hashed, as the multipart route's (chunk-release.ts); the S3 store never
    // releases them, so there they are left to the collector.
    const hashing = createHashingStream({
      from: offset === 0 ? undefined : (from as HashState & { sha256State: Buffer }),
      keepState: true,
      releaseChunks: true,
    });
    // The body's failure destroys the hashing stream, which fails the store's write.
    pipeline(stream, hashing.stream).catch(() => {});
    const newOffset = await write(hashing.stream, storeId, offset);
    const state = hashing.state();
    // Saved only when the hash covers exactly the bytes the store took.
    if (state.bytes === newOffset) await deps.states.save(key, offset, state);
    return newOffset;
  };
}
