#include "cli/option_table_markdown.hpp"

namespace sqlmorph::core {
namespace {

// A '|' would end the table cell.
std::string escaped_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string default_cell(const option_decl& o) {
  if (!o.default_value) return "required";
  if (o.default_value->empty()) return "`\"\"`";  // an empty code span would not show
  return "`" + escaped_cell(*o.default_value) + "`";
}

}  // namespace

std::string option_table_begin_marker(const component_info& c) {
  return "<!-- options: " + c.kind + " " + c.name + " -->";
}

std::string option_table_end_marker() {
  return "<!-- /options -->";
}

std::string option_table_markdown(const component_info& c) {
  std::string out = option_table_begin_marker(c) + "\n";
  out += "| option | type | default | |\n";
  out += "|---|---|---|---|\n";
  for (const option_decl& o : c.options) {
    out += "| `" + o.name + "` | " + o.type + (o.sweepable ? ", sweepable" : "") + " | " + default_cell(o) +
           " | " + escaped_cell(o.description) + " |\n";
  }
  return out + option_table_end_marker() + "\n";
}

}  // namespace sqlmorph::core
