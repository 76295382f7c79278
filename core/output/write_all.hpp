#pragma once
// Writing a whole buffer to a file descriptor: ::write until every byte is written, retrying on
// EINTR (the appends of results.jsonl and examples.jsonl, the --sqlmorph-logs files).

#include <filesystem>
#include <string_view>

namespace sqlmorph::core {

/// Writes all of `text` to `fd`. Throws usage_error "writing FILE failed: REASON" (`file` names the
/// descriptor's file); the descriptor stays open.
void write_all(int fd, const std::filesystem::path& file, std::string_view text);

}  // namespace sqlmorph::core
