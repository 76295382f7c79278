#pragma once
// The schema of each database as DDL text, read once per run (connection::describe_schema) and
// shared by every worker: judges of a thousand questions on twenty databases read twenty schemas.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace sqlmorph::core {

class schema_cache {
 public:
  struct entry {
    bool ok = false;
    /// The DDL text (ok), or why it could not be read.
    std::string text;
  };

  /// The schema of the database `key` names (backend identity and target); `read` is called
  /// the first time a key is asked for (two workers asking at once may both read it; one result is
  /// kept). Thread-safe.
  std::shared_ptr<const entry> get(const std::string& key, const std::function<entry()>& read);

  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const entry>, std::less<>> entries_;
};

}  // namespace sqlmorph::core
