#include "addon.h"

NAPI_MODULE_INIT() {
  register_hashing(env, exports);
  register_sending(env, exports);
  return exports;
}
