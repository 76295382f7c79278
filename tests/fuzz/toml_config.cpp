// sqlmorph.toml: any bytes give a configuration or a usage_error naming the file (and line).

#include <cstddef>
#include <cstdint>

#include "config/config.hpp"
#include "errors.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto file = fuzz::scratch_file("sqlmorph.toml", text);
  try {
    const core::config c = core::load_config(file);
    fuzz::require(c.source == file, "the configuration names its file");
  } catch (const core::usage_error& e) {
    fuzz::require(std::string_view(e.what()).find("sqlmorph.toml") != std::string_view::npos ||
                      std::string_view(e.what()).find("[") != std::string_view::npos,
                  "the error says where");
  }
  return 0;
}
