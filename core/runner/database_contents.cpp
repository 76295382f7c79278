#include "runner/database_contents.hpp"

#include <filesystem>

#include "errors.hpp"

namespace sqlmorph::core {

database_hashes database_contents(const std::vector<example>& examples, const backend_routes& routes,
                                  content_hash_memo& memo) {
  database_hashes out;
  for (const example& ex : examples) {
    for (const query_role role : {query_role::gold, query_role::pred}) {
      const query_target where = routes.target(ex, role);
      if (!where.backend->file_targets()) continue;
      const auto [it, added] = out.try_emplace(where.target);
      if (!added) continue;
      // Only regular files are read (a FIFO would block, a device never end).
      std::error_code ec;
      if (std::filesystem::is_regular_file(where.target, ec)) it->second = memo.hash_of(where.target);
    }
  }
  return out;
}

nlohmann::ordered_json database_hashes_json(const database_hashes& hashes) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [file, hash] : hashes)
    j[file] = hash.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(hash);
  return j;
}

database_hashes database_hashes_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw input_error(where + ": \"database_hashes\" is not an object");
  database_hashes out;
  for (const auto& [file, hash] : j.items()) {
    if (!hash.is_null() && !hash.is_string())
      throw input_error(where + ": \"database_hashes\" of " + file + " is not a hash");
    out[file] = hash.is_string() ? hash.get<std::string>() : "";
  }
  return out;
}

std::string changed_database(const database_hashes& before, const database_hashes& after) {
  const auto shown = [](const std::string& hash) { return hash.empty() ? std::string("unreadable") : hash; };
  for (const auto& [file, hash] : before) {
    const auto it = after.find(file);
    if (it != after.end() && it->second != hash)
      return file + " (content " + shown(hash) + ", then " + shown(it->second) + ")";
  }
  return {};
}

}  // namespace sqlmorph::core
