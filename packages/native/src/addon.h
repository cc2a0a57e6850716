// What Node's own APIs cannot do off the main thread, for CloudVault's transfers.
#ifndef CLOUDVAULT_ADDON_H
#define CLOUDVAULT_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>

// createHasher, updateHasher, digestHasher.
void register_hashing(napi_env env, napi_value exports);
// send and cancel on Linux; elsewhere nothing, and callers keep to their portable path.
void register_sending(napi_env env, napi_value exports);

#endif
