/**
 * Imported first by main.ts, so it runs before anything uses libuv's threadpool (which reads
 * UV_THREADPOOL_SIZE once, when it starts). Every stored file waits on the disk twice (an
 * fsync of the blob and one of its directory, docs/decisions/0021-crash-safe-storage.md),
 * each holding a pool thread for ~10 ms; with the default 4 threads, uploads of small files
 * (POST /api/sync/uploads stores 16 at once) queue behind four fsyncs, and so do reads,
 * hashing and DNS meanwhile. 32 threads let the disk commit them together: the blob store
 * alone stored 203 -> 713 files/s here. An operator's own setting is kept.
 */
process.env.UV_THREADPOOL_SIZE ??= '32';
