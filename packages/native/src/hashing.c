// sha256 of an upload's chunks on the libuv thread pool, so the main thread only moves
// bytes. Uses the OpenSSL that Node itself exports to addons, so the result is that of
// node:crypto. (CRC32 is cheap enough for the main thread with a SIMD implementation.)
// The low-level SHA256_CTX, deprecated in OpenSSL 3 but exported by Node and running the
// same assembly as EVP, is a plain struct: its state can be saved between the requests of
// a resumable upload and taken up again, on any node (docs/decisions/0025-resumable-uploads.md).
#define OPENSSL_SUPPRESS_DEPRECATED
#include "addon.h"

#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

// Marks hasher handles, so that no other external can be taken for one.
static const napi_type_tag HASHER_TAG = {0x6c0a1d5e2b8f4c71ULL, 0x9e3d5a7b1f2c8e64ULL};

typedef struct {
  SHA256_CTX context;
  int digested;
  int busy;
  int failed;  // OpenSSL refused an update
  // The update in flight: the chunks' bytes, kept alive by a reference to their array.
  size_t count;
  const unsigned char **data;
  size_t *lengths;
  napi_ref chunks_ref, callback_ref, self_ref;
  napi_async_work work;
} hasher_t;

static void drop_chunks(hasher_t *hasher) {
  free(hasher->data);
  free(hasher->lengths);
  hasher->data = NULL;
  hasher->lengths = NULL;
}

static void free_hasher(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  hasher_t *hasher = data;
  drop_chunks(hasher);
  free(hasher);
}

// createHasher([state]) -> handle: a new sha256, or one going on from exportHasher's state.
static napi_value create_hasher(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  const unsigned char *state = NULL;
  size_t state_length = 0;
  if (argc >= 1) {
    napi_valuetype type;
    napi_typeof(env, argv[0], &type);
    bool is_buffer = false;
    if (type != napi_undefined) napi_is_buffer(env, argv[0], &is_buffer);
    if (type != napi_undefined && (!is_buffer || napi_get_buffer_info(env, argv[0], (void **)&state, &state_length) != napi_ok || state_length != sizeof(SHA256_CTX))) {
      napi_throw_type_error(env, "HASH_STATE_INVALID", "createHasher(state) expects a state from exportHasher");
      return NULL;
    }
  }
  hasher_t *hasher = calloc(1, sizeof *hasher);
  if (hasher == NULL) {
    napi_throw_error(env, "HASH_FAILED", "could not start a sha256 hash");
    return NULL;
  }
  if (state) {
    memcpy(&hasher->context, state, sizeof(SHA256_CTX));
    // A state from another build or from garbage must not make OpenSSL read out of bounds.
    if (hasher->context.num >= SHA256_CBLOCK || hasher->context.md_len != SHA256_DIGEST_LENGTH) {
      free(hasher);
      napi_throw_type_error(env, "HASH_STATE_INVALID", "createHasher(state) expects a state from exportHasher");
      return NULL;
    }
  } else if (SHA256_Init(&hasher->context) != 1) {
    free(hasher);
    napi_throw_error(env, "HASH_FAILED", "could not start a sha256 hash");
    return NULL;
  }
  napi_value handle;
  if (napi_create_external(env, hasher, free_hasher, NULL, &handle) != napi_ok) {
    free_hasher(env, hasher, NULL);
    napi_throw_error(env, "HASH_FAILED", "could not create the handle");
    return NULL;
  }
  if (napi_type_tag_object(env, handle, &HASHER_TAG) != napi_ok) {
    // The handle's finalizer frees the hasher.
    napi_throw_error(env, "HASH_FAILED", "could not tag the handle");
    return NULL;
  }
  return handle;
}

static void hash_chunks(napi_env env, void *data) {
  (void)env;
  hasher_t *hasher = data;
  for (size_t i = 0; i < hasher->count; i++) {
    // An empty chunk may have no bytes at all.
    if (hasher->lengths[i] == 0) continue;
    if (SHA256_Update(&hasher->context, hasher->data[i], hasher->lengths[i]) != 1) hasher->failed = 1;
  }
}

static void finish_update(napi_env env, napi_status status, void *data) {
  hasher_t *hasher = data;
  napi_value error;
  napi_delete_reference(env, hasher->chunks_ref);
  napi_delete_async_work(env, hasher->work);
  drop_chunks(hasher);
  hasher->busy = 0;
  if (status == napi_ok && !hasher->failed) {
    napi_get_null(env, &error);
  } else {
    napi_value message, code;
    napi_create_string_utf8(env, hasher->failed ? "sha256 refused the bytes" : "hashing was cancelled", NAPI_AUTO_LENGTH, &message);
    napi_create_string_utf8(env, "HASH_FAILED", NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, message, &error);
  }
  call_back_and_release(env, hasher->callback_ref, hasher->self_ref, error);
}

// updateHasher(handle, chunks, callback(error)): hashes the chunks, in order, on the thread
// pool; one update at a time per hasher, and the chunks must not change until it calls back.
static napi_value update_hasher(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  hasher_t *hasher = NULL;
  bool is_array = false;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 3) {
    napi_is_array(env, argv[1], &is_array);
    napi_typeof(env, argv[2], &callback_type);
  }
  if (argc < 3 || (hasher = tagged_external(env, argv[0], &HASHER_TAG)) == NULL || !is_array || callback_type != napi_function) {
    napi_throw_type_error(env, NULL, "updateHasher(handle, chunks, callback) expects a hasher, an array and a function");
    return NULL;
  }
  if (hasher->busy || hasher->digested) {
    napi_throw_error(env, "HASH_FAILED", hasher->busy ? "the hasher is busy" : "the hash was already digested");
    return NULL;
  }
  int valid = buffer_list(env, argv[1], &hasher->data, &hasher->lengths, &hasher->count);
  napi_value name;
  napi_create_string_utf8(env, "hash", NAPI_AUTO_LENGTH, &name);
  if (!valid || napi_create_async_work(env, NULL, name, hash_chunks, finish_update, hasher, &hasher->work) != napi_ok) {
    drop_chunks(hasher);
    napi_throw_type_error(env, NULL, "chunks must be Buffers");
    return NULL;
  }
  if (napi_create_reference(env, argv[1], 1, &hasher->chunks_ref) != napi_ok ||
      napi_create_reference(env, argv[2], 1, &hasher->callback_ref) != napi_ok ||
      napi_create_reference(env, argv[0], 1, &hasher->self_ref) != napi_ok || napi_queue_async_work(env, hasher->work) != napi_ok) {
    // Only when the environment is going away; the hasher is not used again.
    napi_throw_error(env, "HASH_FAILED", "could not queue the hashing");
    return NULL;
  }
  hasher->busy = 1;
  return NULL;
}

// digestHasher(handle) -> sha256 as lower-case hex
static napi_value digest_hasher(napi_env env, napi_callback_info info) {
  hasher_t *hasher = tagged_argument(env, info, &HASHER_TAG);
  if (hasher == NULL || hasher->busy || hasher->digested || hasher->failed) {
    napi_throw_error(env, "HASH_FAILED", "digestHasher(handle) expects an idle hasher not yet digested");
    return NULL;
  }
  unsigned char digest[SHA256_DIGEST_LENGTH];
  unsigned int length = SHA256_DIGEST_LENGTH;
  hasher->digested = 1;
  if (SHA256_Final(digest, &hasher->context) != 1) {
    napi_throw_error(env, "HASH_FAILED", "sha256 could not finish");
    return NULL;
  }
  char hex[2 * SHA256_DIGEST_LENGTH + 1];
  for (unsigned int i = 0; i < length; i++) {
    static const char digits[] = "0123456789abcdef";
    hex[2 * i] = digits[digest[i] >> 4];
    hex[2 * i + 1] = digits[digest[i] & 15];
  }
  hex[2 * length] = 0;
  napi_value sha256;
  napi_create_string_utf8(env, hex, 2 * length, &sha256);
  return sha256;
}

// exportHasher(handle) -> Buffer: the state after every byte hashed so far, for createHasher.
static napi_value export_hasher(napi_env env, napi_callback_info info) {
  hasher_t *hasher = tagged_argument(env, info, &HASHER_TAG);
  if (hasher == NULL || hasher->busy || hasher->digested || hasher->failed) {
    napi_throw_error(env, "HASH_FAILED", "exportHasher(handle) expects an idle hasher not yet digested");
    return NULL;
  }
  napi_value state;
  if (napi_create_buffer_copy(env, sizeof(SHA256_CTX), &hasher->context, NULL, &state) != napi_ok) {
    napi_throw_error(env, "HASH_FAILED", "could not copy the state");
    return NULL;
  }
  return state;
}

void register_hashing(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"createHasher", NULL, create_hasher, NULL, NULL, NULL, napi_default_method, NULL},
      {"updateHasher", NULL, update_hasher, NULL, NULL, NULL, napi_default_method, NULL},
      {"digestHasher", NULL, digest_hasher, NULL, NULL, NULL, napi_default_method, NULL},
      {"exportHasher", NULL, export_hasher, NULL, NULL, NULL, napi_default_method, NULL},
  };
  napi_define_properties(env, exports, 4, functions);
}
