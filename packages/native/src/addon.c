#include "addon.h"

#include <stdlib.h>

void *tagged_external(napi_env env, napi_value value, const napi_type_tag *tag) {
  bool tagged = false;
  void *data = NULL;
  if (napi_check_object_type_tag(env, value, tag, &tagged) != napi_ok || !tagged) return NULL;
  if (napi_get_value_external(env, value, &data) != napi_ok) return NULL;
  return data;
}

void *tagged_argument(napi_env env, napi_callback_info info, const napi_type_tag *tag) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  return tagged_external(env, argv[0], tag);
}

int buffer_list(napi_env env, napi_value array, const unsigned char ***data, size_t **lengths, size_t *count) {
  uint32_t length = 0;
  napi_get_array_length(env, array, &length);
  *count = 0;
  *data = calloc(length > 0 ? length : 1, sizeof **data);
  *lengths = calloc(length > 0 ? length : 1, sizeof **lengths);
  if (*data == NULL || *lengths == NULL) return 0;
  for (uint32_t i = 0; i < length; i++) {
    napi_value chunk;
    bool is_buffer = false;
    void *bytes;
    if (napi_get_element(env, array, i, &chunk) != napi_ok || napi_is_buffer(env, chunk, &is_buffer) != napi_ok || !is_buffer ||
        napi_get_buffer_info(env, chunk, &bytes, &(*lengths)[i]) != napi_ok)
      return 0;
    (*data)[i] = bytes;
  }
  *count = length;
  return 1;
}

void call_back_and_release(napi_env env, napi_ref callback_ref, napi_ref self_ref, napi_value error) {
  napi_value callback, global;
  napi_get_reference_value(env, callback_ref, &callback);
  napi_delete_reference(env, callback_ref);
  napi_get_global(env, &global);
  napi_call_function(env, global, callback, 1, &error, NULL);
  // Last: the handle may be collected from here on.
  napi_delete_reference(env, self_ref);
}

NAPI_MODULE_INIT() {
  register_hashing(env, exports);
  register_file_writing(env, exports);
  register_sending(env, exports);
  return exports;
}
