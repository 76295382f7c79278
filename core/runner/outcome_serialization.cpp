#include "runner/outcome_serialization.hpp"

#include <cstring>

namespace sqlmorph::core {
namespace {

constexpr std::string_view magic = "SQMORES1";

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}
void put_bytes(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s);
}

class reader {
 public:
  explicit reader(std::string_view in) : in_(in) {}
  bool u64(std::uint64_t& v) {
    if (in_.size() - pos_ < 8) return false;
    std::memcpy(&v, in_.data() + pos_, 8);
    pos_ += 8;
    return true;
  }
  bool u8(std::uint8_t& v) {
    if (pos_ >= in_.size()) return false;
    v = static_cast<std::uint8_t>(in_[pos_++]);
    return true;
  }
  bool bytes(std::string_view& s) {
    std::uint64_t n = 0;
    if (!u64(n) || in_.size() - pos_ < n) return false;
    s = in_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  bool done() const { return pos_ == in_.size(); }
  std::size_t left() const { return in_.size() - pos_; }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
};

}  // namespace

void serialize_cell(const value& v, std::string& out) {
  out.push_back(static_cast<char>(v.kind()));
  switch (v.kind()) {
    case value_kind::null:
      break;
    case value_kind::integer:
      put_u64(out, static_cast<std::uint64_t>(v.as_integer()));
      break;
    case value_kind::real: {
      std::uint64_t bits;
      const double d = v.as_real();
      std::memcpy(&bits, &d, 8);
      put_u64(out, bits);
      break;
    }
    case value_kind::text:
    case value_kind::blob:
      put_bytes(out, v.bytes());
      break;
  }
}

void serialize_outcome(const query_outcome& o, std::string& out) {
  out.append(magic);
  out.push_back(static_cast<char>(o.status));
  put_bytes(out, o.message);
  std::uint64_t ms;
  std::memcpy(&ms, &o.elapsed_ms, 8);
  put_u64(out, ms);
  const result& r = o.rows;
  out.push_back(r.truncated() ? 1 : 0);
  put_u64(out, r.column_count());
  for (std::size_t c = 0; c < r.column_count(); ++c) {
    put_bytes(out, r.column_names()[c]);
    put_bytes(out, c < r.column_types().size() ? r.column_types()[c] : std::string_view());
  }
  put_u64(out, r.cells().size());
  for (const value& v : r.cells()) serialize_cell(v, out);
}

std::optional<query_outcome> deserialize_outcome(std::string_view bytes) {
  if (bytes.substr(0, magic.size()) != magic) return std::nullopt;
  reader in(bytes.substr(magic.size()));
  query_outcome o;
  std::uint8_t status = 0;
  std::string_view message;
  std::uint64_t ms = 0;
  std::uint8_t truncated = 0;
  std::uint64_t columns = 0;
  if (!in.u8(status) || status > static_cast<std::uint8_t>(query_status::backend_error) ||
      !in.bytes(message) || !in.u64(ms) || !in.u8(truncated) || truncated > 1 || !in.u64(columns) ||
      columns > (1u << 20) ||
      columns > in.left() / 16) {  // a name and a type: 8 bytes of length each at least
    return std::nullopt;
  }
  o.status = static_cast<query_status>(status);
  o.message = std::string(message);
  std::memcpy(&o.elapsed_ms, &ms, 8);
  std::vector<std::string> names;
  std::vector<std::string> types;
  for (std::uint64_t c = 0; c < columns; ++c) {
    std::string_view name;
    std::string_view type;
    if (!in.bytes(name) || !in.bytes(type)) return std::nullopt;
    names.emplace_back(name);
    types.emplace_back(type);
  }
  o.rows.set_columns(std::move(names), std::move(types));
  std::uint64_t cells = 0;
  // Each cell takes at least its kind's byte: a count beyond the bytes left is a damaged entry (it
  // must not size an allocation).
  if (!in.u64(cells) || cells > in.left() || (columns == 0 && cells != 0) ||
      (columns != 0 && cells % columns != 0))
    return std::nullopt;
  o.rows.reserve_rows(columns == 0 ? 0 : cells / columns);
  for (std::uint64_t i = 0; i < cells; ++i) {
    std::uint8_t kind = 0;
    if (!in.u8(kind)) return std::nullopt;
    std::uint64_t v = 0;
    std::string_view b;
    switch (static_cast<value_kind>(kind)) {
      case value_kind::null:
        o.rows.append_null();
        break;
      case value_kind::integer:
        if (!in.u64(v)) return std::nullopt;
        o.rows.append_integer(static_cast<std::int64_t>(v));
        break;
      case value_kind::real: {
        if (!in.u64(v)) return std::nullopt;
        double d;
        std::memcpy(&d, &v, 8);
        o.rows.append_real(d);
        break;
      }
      case value_kind::text:
        if (!in.bytes(b)) return std::nullopt;
        o.rows.append_text(b);
        break;
      case value_kind::blob:
        if (!in.bytes(b)) return std::nullopt;
        o.rows.append_blob(b);
        break;
      default:
        return std::nullopt;
    }
  }
  o.rows.set_truncated(truncated != 0);
  if (!in.done()) return std::nullopt;
  return o;
}

}  // namespace sqlmorph::core
