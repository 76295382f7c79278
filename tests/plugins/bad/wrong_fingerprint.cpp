// The right ABI number but another build (compiler, standard library or SDK headers).
#include <sqlmorph/plugin.hpp>

extern "C" __attribute__((visibility("default"))) const sqlmorph_manifest_v1* sqlmorph_plugin_manifest_v1(
    const sqlmorph_host_v1*) {
  static const sqlmorph_manifest_v1 manifest = {SQLMORPH_PLUGIN_ABI_VERSION,
                                                sizeof(sqlmorph_manifest_v1),
                                                "sqlmorph 0.0.1; abi 1; sdk 0000; compiler 4.2; libstdc++ 1",
                                                "wrong_fingerprint",
                                                "1.0.0",
                                                nullptr,
                                                0};
  return &manifest;
}
