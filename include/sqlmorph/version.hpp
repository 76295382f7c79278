#pragma once
/// \file version.hpp
/// The sqlmorph release and the plugin ABI version.

#include <cstdint>

#define SQLMORPH_VERSION_STRING "0.1.0"

/// Bumped whenever the C manifest layout or any SDK interface changes in a way that an already-built
/// plugin would not survive. The loader refuses a plugin whose manifest carries another number.
#define SQLMORPH_PLUGIN_ABI_VERSION 2

namespace sqlmorph {

inline constexpr const char* version_string = SQLMORPH_VERSION_STRING;
inline constexpr std::uint32_t plugin_abi_version = SQLMORPH_PLUGIN_ABI_VERSION;

}  // namespace sqlmorph
