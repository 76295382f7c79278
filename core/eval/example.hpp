#pragma once
// One thing to evaluate: a gold query, a predicted query and the database they run on.

#include <string>

namespace sqlmorph::core {

struct example {
  /// Unique within a run (e.g. "dail-sql-gpt4:17" or the cases file's `id`).
  std::string id;
  /// The cases file gave the id as a JSON integer: output writes it back as one.
  bool id_is_number = false;
  /// The database's name (Spider's db_id); may be empty.
  std::string db_id;
  /// What the backend opens: a file path for SQLite.
  std::string db;
  std::string gold;
  std::string pred;
  /// The system that produced `pred` (empty if unknown).
  std::string system;
  std::string question;
  std::string evidence;
  std::string difficulty;
  /// Where the example was read from ("cases.jsonl:12"), for messages.
  std::string origin;
  /// The benchmark item the example answers (Spider's line, BIRD's question): examples of several
  /// systems for the same item share their gold query and are evaluated together. Empty: its own.
  std::string item;
  /// The prediction file has nothing for this example (status pred_missing; `pred` is empty).
  bool pred_missing = false;
  /// Backends this example's gold and predicted queries must run on (empty: the run's routes).
  std::string gold_backend;
  std::string pred_backend;
};

}  // namespace sqlmorph::core
