#pragma once
// Every metadata file sqlmorph writes (run.json, summary.json, merged outputs, Lua's write_file)
// goes through here: the text goes to a temporary file beside the target, is flushed to disk, and
// replaces the target by rename — so a full disk, a kill or a crash leaves the previous file (or
// none), never a truncated one. A target that exists and is not a regular file (a device, a FIFO,
// /proc/...) is refused: renaming over it would replace the device rather than write to it.

#include <filesystem>
#include <string_view>

namespace sqlmorph::core {

/// Replaces `file` with `text` atomically. Throws usage_error naming the file and the system's
/// reason when it cannot (the target is left as it was and the temporary file is removed).
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

}  // namespace sqlmorph::core
