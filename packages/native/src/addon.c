#include "addon.h"

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

NAPI_MODULE_INIT() {
  register_hashing(env, exports);
  register_file_writing(env, exports);
  register_sending(env, exports);
  return exports;
}
