#pragma once
// The judge's prompt: a text file with placeholders for the parts of an example.
//
//   {{question}} {{sql}} {{dialect}} {{schema}} {{hints}}   the value (may be empty)
//   {{#schema}} ... {{/schema}}                            kept only when schema is not empty
//   {{^schema}} ... {{/schema}}                            kept only when schema is empty
//
// Sections work for every placeholder name and may nest. A newline right after a section tag
// that ends its line is dropped with the tag, so a left-out section leaves no blank line.
// Values are inserted as they are and never re-read as template text.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <sqlmorph/judge.hpp>

namespace sqlmorph::openai {

class prompt_template {
 public:
  /// Parses `text`; throws std::invalid_argument for an unknown placeholder, an unclosed or
  /// mismatched section or an unterminated tag, naming the line. `origin` names the text in messages.
  static prompt_template parse(const std::string& text, const std::string& origin);
  /// Reads and parses a file; throws when it cannot be read.
  static prompt_template load(const std::filesystem::path& file);

  std::string render(const judge_request& request) const;

  /// The template's text as read (part of the judge's identity in messages).
  const std::string& origin() const noexcept { return origin_; }

  struct node;

 private:
  std::shared_ptr<const std::vector<node>> nodes_;
  std::string origin_;
};

/// The placeholder names a template may use.
const std::vector<std::string>& prompt_placeholders();

}  // namespace sqlmorph::openai
