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

/// For a file the user names as the output (`export -o FILE`): an existing character device, FIFO
/// or socket (/dev/null, /dev/stdout, a named pipe) is written in place, as a shell redirection
/// would write it — there is no file to replace; anything else is replaced by
/// write_file_atomically(), a symbolic link followed to its target (the link stays). A folder is
/// refused. Throws usage_error naming the file and the system's reason when it cannot.
void write_output_file(const std::filesystem::path& file, std::string_view text);

}  // namespace sqlmorph::core
