#pragma once
// Reading sqlmorph.toml: positions for messages and the "every key must be known" table walk.

#include <toml++/toml.h>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core::toml_reading {

/// "FILE:LINE:COL".
std::string where(const std::filesystem::path& file, const toml::source_region& src);

using key_handler = std::function<void(const toml::node&, const std::string& at)>;

/// Walks one table: every key must be known; each known key's handler validates and stores it.
/// An unknown key is a usage_error naming its position and the known keys.
void walk_table(const std::filesystem::path& file, const toml::table& table, const std::string& table_name,
                const std::map<std::string, key_handler>& keys);

/// A string value, or a usage_error at `at` saying `key` must be one.
std::string string_of(const toml::node& n, const std::string& at, const std::string& key);

/// A component option value: bool, integer, float or string.
spec_value option_value_of(const toml::node& n, const std::string& at, const std::string& key);

/// The `options = { name = value, ... }` of a component table ([backends.X], [judges.X],
/// [embedders.X]): each value as option_value_of reads it, or a usage_error at `at` when `n` is
/// not a table.
std::map<std::string, spec_value, std::less<>> options_of(const std::filesystem::path& file,
                                                          const toml::node& n, const std::string& at);

}  // namespace sqlmorph::core::toml_reading
