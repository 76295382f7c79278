#include "techniques/technique_catalog.hpp"

#include <algorithm>

#include "errors.hpp"

namespace sqlmorph::core {

penalize_choice parse_penalize_choice(const std::string& text) {
  if (text == "true") return penalize_choice::yes;
  if (text == "false") return penalize_choice::no;
  if (text == "both") return penalize_choice::both;
  throw usage_error("--penalize-extra-pred-cols must be true, false or both, not '" + text + "'");
}

void technique_catalog::add(technique_spec spec) {
  if (const technique_spec* existing = find(spec.name)) {
    throw usage_error("technique '" + spec.name + "' is declared twice" +
                      (existing->origin.empty() ? std::string() : " (first at " + existing->origin + ")") +
                      (spec.origin.empty() ? std::string() : " (again at " + spec.origin + ")"));
  }
  specs_.push_back(std::move(spec));
}

const technique_spec* technique_catalog::find(const std::string& name) const {
  for (const technique_spec& s : specs_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> technique_catalog::names() const {
  std::vector<std::string> out;
  for (const technique_spec& s : specs_) out.push_back(s.name);
  return out;
}

std::vector<std::shared_ptr<const technique>> technique_catalog::assemble(
    const std::vector<std::string>& requested, penalize_choice penalize, const component_registry& registry,
    bool plug_value) const {
  std::vector<std::string> names;
  for (const std::string& n : requested) {
    if (n == "all") {
      for (const technique_spec& s : specs_) {
        if (!s.opt_in) names.push_back(s.name);
      }
    } else {
      names.push_back(n);
    }
  }
  std::vector<std::shared_ptr<const technique>> out;
  std::vector<std::string> done;
  bool plugged = false;
  for (const std::string& name : names) {
    if (std::find(done.begin(), done.end(), name) != done.end()) continue;
    done.push_back(name);
    const technique_spec* spec = find(name);
    if (spec == nullptr) {
      std::string known;
      for (const std::string& k : this->names()) known += (known.empty() ? "" : ", ") + k;
      throw usage_error("unknown technique '" + name + "'; known techniques: " + known);
    }
    technique_spec chosen = *spec;
    if (plug_value && chosen.candidates) {
      const component_info* info = registry.find("sql_candidates", chosen.candidates->name);
      if (info != nullptr && info->find_option(plug_value_option) != nullptr) {
        chosen.candidates->with(plug_value_option, true);
        plugged = true;
      }
    }
    const component_info* scorer_info = registry.find("scorer", spec->scorer.name);
    const option_decl* swept = scorer_info != nullptr ? scorer_info->sweepable_option() : nullptr;
    if (swept == nullptr || spec->scorer.options.contains(swept->name)) {
      out.push_back(technique::assemble(chosen, registry));
      continue;
    }
    std::vector<bool> values;
    if (penalize != penalize_choice::no) values.push_back(true);
    if (penalize != penalize_choice::yes) values.push_back(false);
    for (bool v : values) {
      technique_spec variant = chosen;
      variant.scorer.with(swept->name, v);
      out.push_back(technique::assemble(variant, registry));
    }
  }
  if (plug_value && !plugged) {
    throw usage_error(
        "--plug-value applies to techniques that try the gold's values in the prediction "
        "(spider_official_exec, spider_test_suite); none of the chosen techniques does");
  }
  return out;
}

std::vector<std::string> split_technique_list(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  auto flush = [&] {
    const auto b = current.find_first_not_of(" \t");
    const auto e = current.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(current.substr(b, e - b + 1));
    current.clear();
  };
  for (char c : text) {
    if (c == ',')
      flush();
    else
      current += c;
  }
  flush();
  if (std::find(out.begin(), out.end(), "none") != out.end()) {
    if (out.size() > 1)
      throw usage_error("techniques: 'none' means no technique; it cannot be listed with others");
    out.clear();
  }
  return out;
}

}  // namespace sqlmorph::core
