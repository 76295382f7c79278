#include "prompt_template.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sqlmorph::openai {

struct prompt_template::node {
  enum class type { text, value, section, inverted_section } kind = type::text;
  std::string text;  // literal text, or the placeholder name
  std::vector<node> children;
};

namespace {

using node = prompt_template::node;

const std::string& field(const judge_request& r, const std::string& name) {
  if (name == "question") return r.question;
  if (name == "sql") return r.sql;
  if (name == "dialect") return r.dialect;
  if (name == "schema") return r.schema;
  return r.hints;  // the parser admits only the names of prompt_placeholders()
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

struct parser {
  const std::string& text;
  const std::string& origin;
  std::size_t pos = 0;

  std::size_t line_at(std::size_t p) const {
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<long>(p), '\n'));
  }
  [[noreturn]] void fail(std::size_t p, const std::string& what) const {
    throw std::invalid_argument(origin + ":" + std::to_string(line_at(p)) + ": " + what);
  }

  // Parses until the end or until {{/closing}}; returns the nodes.
  std::vector<node> parse_until(const std::string& closing, std::size_t opened_at) {
    std::vector<node> out;
    while (pos < text.size()) {
      const std::size_t open = text.find("{{", pos);
      if (open == std::string::npos) {
        out.push_back({node::type::text, text.substr(pos), {}});
        pos = text.size();
        break;
      }
      if (open > pos) out.push_back({node::type::text, text.substr(pos, open - pos), {}});
      const std::size_t close = text.find("}}", open + 2);
      if (close == std::string::npos) fail(open, "'{{' without '}}'");
      std::string tag = text.substr(open + 2, close - open - 2);
      tag.erase(0, tag.find_first_not_of(" \t"));
      tag.erase(tag.find_last_not_of(" \t") + 1);
      pos = close + 2;

      const char sigil = tag.empty() ? '\0' : tag[0];
      const std::string name = (sigil == '#' || sigil == '^' || sigil == '/') ? tag.substr(1) : tag;
      const auto& known = prompt_placeholders();
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(open, "unknown placeholder '{{" + tag + "}}' (known: " + list + ")");
      }
      if (sigil == '/') {
        if (name != closing) fail(open, "'{{/" + name + "}}' closes no open section");
        drop_newline_after_tag(open);
        return out;
      }
      if (sigil == '#' || sigil == '^') {
        drop_newline_after_tag(open);
        node section{sigil == '#' ? node::type::section : node::type::inverted_section, name, {}};
        section.children = parse_until(name, open);
        out.push_back(std::move(section));
      } else {
        out.push_back({node::type::value, name, {}});
      }
    }
    if (!closing.empty()) fail(opened_at, "section '{{#" + closing + "}}' is never closed");
    return out;
  }

  // A section tag that starts its line (only blanks before it) takes the newline after it along.
  void drop_newline_after_tag(std::size_t tag_start) {
    const std::size_t newline_before = tag_start == 0 ? std::string::npos : text.rfind('\n', tag_start - 1);
    const std::size_t line_start = newline_before == std::string::npos ? 0 : newline_before + 1;
    if (!blank(text.substr(line_start, tag_start - line_start))) return;
    if (text.compare(pos, 1, "\n") == 0) {
      pos += 1;
    } else if (text.compare(pos, 2, "\r\n") == 0) {
      pos += 2;
    }
  }
};

void render_nodes(const std::vector<node>& nodes, const judge_request& r, std::string& out) {
  for (const node& n : nodes) {
    switch (n.kind) {
      case node::type::text:
        out += n.text;
        break;
      case node::type::value:
        out += field(r, n.text);
        break;
      case node::type::section:
        if (!blank(field(r, n.text))) render_nodes(n.children, r, out);
        break;
      case node::type::inverted_section:
        if (blank(field(r, n.text))) render_nodes(n.children, r, out);
        break;
    }
  }
}

}  // namespace

const std::vector<std::string>& prompt_placeholders() {
  static const std::vector<std::string> names = {"question", "sql", "dialect", "schema", "hints"};
  return names;
}

prompt_template prompt_template::parse(const std::string& text, const std::string& origin) {
  parser p{text, origin};
  prompt_template t;
  t.nodes_ = std::make_shared<const std::vector<node>>(p.parse_until("", 0));
  t.origin_ = origin;
  return t;
}

prompt_template prompt_template::load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read the prompt template " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), file.string());
}

std::string prompt_template::render(const judge_request& request) const {
  std::string out;
  render_nodes(*nodes_, request, out);
  return out;
}

}  // namespace sqlmorph::openai
