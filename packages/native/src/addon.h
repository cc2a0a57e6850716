// What Node's own APIs cannot do off the main thread, for CloudVault's transfers.
#ifndef CLOUDVAULT_ADDON_H
#define CLOUDVAULT_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>

// The data behind an external that carries `tag`; NULL for any other value.
void *tagged_external(napi_env env, napi_value value, const napi_type_tag *tag);
// The same for a call's first argument: a function whose one argument is a handle.
void *tagged_argument(napi_env env, napi_callback_info info, const napi_type_tag *tag);

// The bytes and lengths of an array of Buffers, for a job that reads them off the main
// thread while a reference keeps the array alive; 0 when it holds anything else or memory
// ran out. The caller frees both lists, whatever the result.
int buffer_list(napi_env env, napi_value array, const unsigned char ***data, size_t **lengths, size_t *count);

// Ends a thread-pool job of a handle: calls its callback with `error`, then lets go of the
// handle. Takes both references by value, as the callback may queue the next job.
void call_back_and_release(napi_env env, napi_ref callback_ref, napi_ref self_ref, napi_value error);

// createHasher, updateHasher, digestHasher.
void register_hashing(napi_env env, napi_value exports);
// createFileWriter, writeFile, finishFile, closeFileWriter.
void register_file_writing(napi_env env, napi_value exports);
// send and cancel on Linux; elsewhere nothing, and callers keep to their portable path.
void register_sending(napi_env env, napi_value exports);

#endif
