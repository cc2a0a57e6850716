// What Node's own APIs cannot do off the main thread, for CloudVault's transfers.
#ifndef CLOUDVAULT_ADDON_H
#define CLOUDVAULT_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>

// The data behind an external that carries `tag`; NULL for any other value.
void *tagged_external(napi_env env, napi_value value, const napi_type_tag *tag);
// The same for a call's first argument: a function whose one argument is a handle.
void *tagged_argument(napi_env env, napi_callback_info info, const napi_type_tag *tag);

// createHasher, updateHasher, digestHasher.
void register_hashing(napi_env env, napi_value exports);
// createFileWriter, writeFile, finishFile, closeFileWriter.
void register_file_writing(napi_env env, napi_value exports);
// send and cancel on Linux; elsewhere nothing, and callers keep to their portable path.
void register_sending(napi_env env, napi_value exports);

#endif
