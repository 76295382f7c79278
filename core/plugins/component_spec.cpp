#include "plugins/component_spec.hpp"

#include <sqlmorph/value.hpp>

namespace sqlmorph::core {
namespace {

void append_value(std::string& out, const spec_value& v, bool canonical) {
  struct visitor {
    std::string& out;
    bool canonical;
    void operator()(bool b) const { out += b ? "true" : "false"; }
    void operator()(std::int64_t i) const { out += std::to_string(i); }
    void operator()(double d) const { out += python_float_repr(d); }
    void operator()(const std::string& s) const {
      if (canonical) {
        out += '"';
        for (char c : s) {
          if (c == '"' || c == '\\') out += '\\';
          out += c;
        }
        out += '"';
      } else {
        out += s;
      }
    }
    void operator()(const std::shared_ptr<const component_spec>& c) const {
      out += canonical ? canonical_key(*c) : describe(*c);
    }
  };
  std::visit(visitor{out, canonical}, v);
}

std::string render(const component_spec& spec, bool canonical) {
  std::string out = spec.name;
  if (spec.options.empty() && !canonical) return out;
  out += '{';
  bool first = true;
  for (const auto& [name, v] : spec.options) {
    if (!first) out += canonical ? ";" : ", ";
    first = false;
    out += name;
    out += '=';
    append_value(out, v, canonical);
  }
  out += '}';
  return out;
}

}  // namespace

std::string canonical_key(const component_spec& spec) {
  return render(spec, true);
}
std::string describe(const component_spec& spec) {
  return render(spec, false);
}

}  // namespace sqlmorph::core
