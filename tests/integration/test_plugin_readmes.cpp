// The option tables of the plugin READMEs are what `sqlmorph plugins --markdown` prints: every
// `<!-- options: KIND NAME -->` block equals the generated table of that component, and every
// component with options of a library under plugins/ has its block in that library's README (so a
// new or changed option cannot be forgotten there).

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace test = sqlmorph::test;

namespace {

using block_map = std::map<std::string, std::string>;  // "KIND NAME" -> block, markers included

const std::string begin_prefix = "<!-- options: ";
const std::string end_marker = "<!-- /options -->";

// The marker blocks of a Markdown text, by component.
block_map marker_blocks(const std::string& text) {
  block_map out;
  std::size_t at = 0;
  while ((at = text.find(begin_prefix, at)) != std::string::npos) {
    const std::size_t close = text.find(" -->", at);
    const std::size_t end = text.find(end_marker, at);
    if (close == std::string::npos || end == std::string::npos) {
      out["(unclosed block)"] = text.substr(at);
      break;
    }
    const std::string component = text.substr(at + begin_prefix.size(), close - at - begin_prefix.size());
    out[component] = text.substr(at, end + end_marker.size() - at);
    at = end;
  }
  return out;
}

// `sqlmorph plugins --markdown` split into its "## LIBRARY" sections.
std::map<std::string, std::string> sections_by_library(const std::string& out) {
  std::map<std::string, std::string> sections;
  std::istringstream in(out);
  std::string line;
  std::string library;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      library = line.substr(3);
      sections[library];
      continue;
    }
    if (!library.empty()) sections[library] += line + "\n";
  }
  return sections;
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("every plugin README's option tables are what `sqlmorph plugins --markdown` generates") {
  test::temp_dir dir;
  {
    std::ofstream(dir.path() / "sqlmorph.toml")
        << "[plugins]\ndirs = [\"" << test::plugin_dir().string() << "\"]\n";
  }
  const auto r = test::run_sqlmorph({"plugins", "--markdown"}, dir.path());
  REQUIRE(r.exit_code == 0);
  const auto sections = sections_by_library(r.out);
  int readmes = 0;
  for (const auto& [library, section] : sections) {
    const std::filesystem::path readme = test::source_dir() / "plugins" / library / "README.md";
    if (!std::filesystem::exists(readme)) continue;  // a test plugin, not one of plugins/
    ++readmes;
    const block_map generated = marker_blocks(section);
    const block_map written = marker_blocks(read_text(readme));
    for (const auto& [component, block] : generated) {
      const auto it = written.find(component);
      INFO(readme.string(), ": ", component);
      CHECK_MESSAGE(it != written.end(), (readme.string() + " has no <!-- options: " + component +
                                          " --> block; paste it from `sqlmorph plugins --markdown`"));
      if (it != written.end()) {
        CHECK_MESSAGE(it->second == block, (readme.string() + ": the options of " + component +
                                            " differ from `sqlmorph plugins --markdown`:\n" + block));
      }
    }
    for (const auto& [component, block] : written) {
      CHECK_MESSAGE(generated.count(component) == 1, (readme.string() + " has a block for " + component +
                                                      ", which has no options in " + library));
    }
  }
  CHECK(readmes >= 10);
}
