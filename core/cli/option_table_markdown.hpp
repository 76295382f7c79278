#pragma once
// The Markdown option table of one component, as the plugin READMEs show it between
// `<!-- options: KIND NAME -->` and `<!-- /options -->` (printed by `sqlmorph plugins --markdown`;
// a test keeps the READMEs equal to it).

#include <string>

#include "plugins/plugin_loader.hpp"

namespace sqlmorph::core {

/// The marker line that opens the table of `c` in a README: `<!-- options: KIND NAME -->`.
std::string option_table_begin_marker(const component_info& c);

/// The marker line that closes it: `<!-- /options -->`.
std::string option_table_end_marker();

/// The block for `c`, markers included, each line ending in '\n': the header
/// `| option | type | default | |`, then one row per option in declaration order:
/// `| \`name\` | type | \`default\` | description |` ("required" when there is no default, `""`
/// for an empty default; '|' in a description escaped).
std::string option_table_markdown(const component_info& c);

}  // namespace sqlmorph::core
