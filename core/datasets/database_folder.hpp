#pragma once
// The database folder of Spider and BIRD (and of `sqlmorph judge --db-id`): `<root>/<db_id>/<db_id>.sqlite`.
// A db_id read from an input file is untrusted: it must name a folder inside the root, never a path.

#include <filesystem>
#include <string>

namespace sqlmorph::core {

/// `<root>/<db_id>/<db_id>.sqlite`. Throws usage_error "WHERE: db_id '...' is not a database name
/// ..." when `db_id` is empty, `.` or `..`, or holds `/`, `\` or a NUL byte (it would reach outside
/// the root).
std::filesystem::path database_file_in(const std::filesystem::path& root, const std::string& db_id,
                                       const std::string& where);

}  // namespace sqlmorph::core
