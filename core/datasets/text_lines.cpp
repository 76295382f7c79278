#include "datasets/text_lines.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "errors.hpp"

namespace sqlmorph::core {

std::string read_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw usage_error(file.string() + ": is a directory, not a file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw usage_error(file.string() + ": cannot be read: " + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::vector<std::string> read_lines(const std::filesystem::path& file) {
  const std::string text = read_file(file);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t stop = end;
    if (stop > start && text[stop - 1] == '\r') --stop;
    lines.emplace_back(text, start, stop - start);
    start = end + 1;
  }
  return lines;
}

std::string trim(std::string_view text) {
  const auto b = text.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string_view::npos) return {};
  const auto e = text.find_last_not_of(" \t\r\n\f\v");
  return std::string(text.substr(b, e - b + 1));
}

}  // namespace sqlmorph::core
