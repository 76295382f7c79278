#pragma once
// What a run's database files hold, part of its fingerprint: each database file a query of the run
// reads — the targets of backends whose targets are the files themselves ("{path}"), as the gold
// cache's — with the XXH3-128 of all its bytes (content_hash.hpp). Shards of one run computed on
// different copies of a database, or a --resume after a database changed, then differ in
// fingerprint and are refused. A server database (PostgreSQL, MariaDB, ODBC, or any backend whose
// target is not the file) has no such hash: only its backend's settings count, and a change of its
// content goes unnoticed.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend_routes.hpp"
#include "eval/example.hpp"
#include "runner/content_hash.hpp"

namespace sqlmorph::core {

/// Database file -> its content hash ("" when it cannot be read: missing, not a regular file).
using database_hashes = std::map<std::string, std::string>;

/// The database files the examples' gold and predicted queries read, each hashed once (`memo`).
database_hashes database_contents(const std::vector<example>& examples, const backend_routes& routes,
                                  content_hash_memo& memo);

/// As run.json keeps them: {file: hash, or null when it could not be read}.
nlohmann::ordered_json database_hashes_json(const database_hashes& hashes);
/// Reads database_hashes_json's form; throws input_error naming `where` when it is not that.
database_hashes database_hashes_from_json(const nlohmann::json& j, const std::string& where);

/// The first database both know whose content differs, as "FILE (content A, then B)"; "" if none.
std::string changed_database(const database_hashes& before, const database_hashes& after);

}  // namespace sqlmorph::core
