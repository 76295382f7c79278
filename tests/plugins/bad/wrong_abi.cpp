// A plugin built for another ABI version: the loader must refuse it before touching anything else.
#include <sqlmorph/plugin.hpp>

extern "C" __attribute__((visibility("default"))) const sqlmorph_manifest_v1* sqlmorph_plugin_manifest_v1(
    const sqlmorph_host_v1*) {
  static const sqlmorph_manifest_v1 manifest = {
      999u, sizeof(sqlmorph_manifest_v1), "from the future", "wrong_abi", "9.9.9", nullptr, 0};
  return &manifest;
}
