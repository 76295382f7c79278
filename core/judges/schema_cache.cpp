#include "judges/schema_cache.hpp"

namespace sqlmorph::core {

std::shared_ptr<const schema_cache::entry> schema_cache::get(const std::string& key,
                                                             const std::function<entry()>& read) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = entries_.find(key); it != entries_.end()) return it->second;
  }
  // Read outside the lock: a slow database must not hold up workers on other databases.
  auto fresh = std::make_shared<const entry>(read());
  std::lock_guard lock(mutex_);
  return entries_.try_emplace(key, std::move(fresh)).first->second;
}

std::size_t schema_cache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace sqlmorph::core
