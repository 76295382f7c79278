#include "eval/result_digest.hpp"

#include "runner/content_hash.hpp"
#include "runner/outcome_serialization.hpp"

namespace sqlmorph::core {

std::string digest_of(const result& r) {
  field_digest out;
  out.add(std::to_string(r.column_count()));
  for (const std::string& name : r.column_names()) out.add(name);
  out.add(std::to_string(r.column_types().size()));
  for (const std::string& type : r.column_types()) out.add(type);
  out.add(r.truncated() ? "truncated" : "complete");
  // The cells in the gold cache's form (serialize_cell: a real by its bits, so -0.0 and 0.0, or two
  // NaNs, count as different results) reach the digest in chunks of about 64 KiB: one hash update
  // per chunk, not per cell. The chunks depend only on the contents and each is length-prefixed,
  // so the digest stays a digest of the contents.
  constexpr std::size_t chunk = 64 * 1024;
  std::string cells;
  cells.reserve(chunk + 64);
  for (const value& v : r.cells()) {
    serialize_cell(v, cells);
    if (cells.size() >= chunk) {
      out.add(cells);
      cells.clear();
    }
  }
  if (!cells.empty()) out.add(cells);
  return out.hex();
}

}  // namespace sqlmorph::core
