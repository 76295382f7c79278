#include "datasets/database_folder.hpp"

#include "errors.hpp"

namespace sqlmorph::core {

std::filesystem::path database_file_in(const std::filesystem::path& root, const std::string& db_id,
                                       const std::string& where) {
  if (db_id.empty() || db_id == "." || db_id == ".." ||
      db_id.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
    std::string shown;
    for (const char c : db_id) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    throw usage_error(
        where + ": db_id '" + shown +
        "' is not a database name: it must name one folder inside the database root (no '/', '\\', "
        "'.' or '..')");
  }
  return root / db_id / (db_id + ".sqlite");
}

}  // namespace sqlmorph::core
