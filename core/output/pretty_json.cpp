#include "output/pretty_json.hpp"

#include <cstddef>
#include <vector>

#include "output/record_json.hpp"
#include "parallel_for.hpp"

namespace sqlmorph::core {
namespace {

// Arrays of at least this many elements are formatted element by element in parallel.
constexpr std::size_t parallel_elements = 64;

struct printer {
  int indent;
  unsigned threads;

  void spaces(std::string& out, int depth) const {
    out.append(static_cast<std::size_t>(depth) * static_cast<std::size_t>(indent), ' ');
  }

  // `j` printed at nesting `depth`: its own dump with every line after the first indented by depth
  // levels (a pretty dump's only newlines are its own: a newline inside a string is escaped).
  void whole(std::string& out, const nlohmann::ordered_json& j, int depth) const {
    const std::string text = dump_json(j, indent);
    std::size_t from = 0;
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', from)) {
      out.append(text, from, at + 1 - from);
      spaces(out, depth);
      from = at + 1;
    }
    out.append(text, from, std::string::npos);
  }

  // Objects are walked member by member down to the long arrays, whose elements are printed whole
  // on the threads (one level of parallelism: an element's own arrays are printed by its thread).
  void print(std::string& out, const nlohmann::ordered_json& j, int depth) const {
    if (threads == 1) return whole(out, j, depth);
    if (j.is_object() && !j.empty()) {
      out += "{\n";
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        spaces(out, depth + 1);
        out += dump_json(nlohmann::ordered_json(it.key()));
        out += ": ";
        print(out, it.value(), depth + 1);
      }
      out += '\n';
      spaces(out, depth);
      out += '}';
      return;
    }
    if (j.is_array() && j.size() >= parallel_elements) {
      std::vector<std::string> elements(j.size());
      parallel_for(j.size(), threads, [&](std::size_t k) {
        spaces(elements[k], depth + 1);
        whole(elements[k], j[k], depth + 1);
      });
      out += "[\n";
      for (std::size_t k = 0; k < elements.size(); ++k) {
        if (k > 0) out += ",\n";
        out += elements[k];
      }
      out += '\n';
      spaces(out, depth);
      out += ']';
      return;
    }
    whole(out, j, depth);
  }
};

}  // namespace

std::string pretty_json(const nlohmann::ordered_json& j, int indent, unsigned threads) {
  std::string out;
  printer{indent, threads}.print(out, j, 0);
  return out;
}

}  // namespace sqlmorph::core
