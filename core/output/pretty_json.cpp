#include "output/pretty_json.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
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

  // `j` printed at nesting `depth`, as dump_json prints it: nlohmann's own serializer, told the
  // indentation it starts at (so no line is copied again to indent it).
  void whole(std::string& out, const nlohmann::ordered_json& j, int depth) const {
    nlohmann::detail::serializer<nlohmann::ordered_json> s(
        nlohmann::detail::output_adapter<char, std::string>(out), ' ',
        nlohmann::ordered_json::error_handler_t::replace);
    s.dump(j, true, false, static_cast<unsigned>(indent), static_cast<unsigned>(depth * indent));
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
      // Each thread prints a run of consecutive elements into a piece of its own.
      const std::size_t pieces = std::min<std::size_t>(threads == 0 ? default_threads() : threads, j.size());
      std::vector<std::string> text(pieces);
      parallel_for(pieces, threads, [&](std::size_t p) {
        // Printed into a string of this thread's own and moved into its place at the end: the
        // pieces' string objects share cache lines, which threads writing them char by char
        // would pass back and forth (that made two threads slower than one).
        std::string piece;
        const std::size_t from = j.size() * p / pieces;
        const std::size_t to = j.size() * (p + 1) / pieces;
        for (std::size_t k = from; k < to; ++k) {
          if (k > 0) piece += ",\n";
          spaces(piece, depth + 1);
          whole(piece, j[k], depth + 1);
        }
        text[p] = std::move(piece);
      });
      std::size_t size = out.size() + 4 + static_cast<std::size_t>(depth * indent);
      for (const std::string& t : text) size += t.size();
      out.reserve(size);
      out += "[\n";
      for (const std::string& t : text) out += t;
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
