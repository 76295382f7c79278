#pragma once
// Memory left to the process's exit. The command-line tool ends right after its command, and the
// system takes a process's memory back at once; freeing a large run's structures first (the
// examples, the query results kept for reuse, the summary's groups: millions of allocations, many
// made on other threads) took 30-40 ms of a 2 s run, one allocation at a time, after every result
// was written. `sqlmorph eval` asks for this (one run, then the process ends); a library user (the
// Python module, the tests) and a Lua experiment, which runs many evaluations in one process, free
// as usual. Only objects that hold nothing but memory may be left: files, sockets and plugins are
// still closed by their destructors.

#include <type_traits>
#include <utility>

namespace sqlmorph::core {

/// Whether this build runs under the address sanitizer (memory is then never left to the exit).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool address_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool address_sanitized = true;
#else
inline constexpr bool address_sanitized = false;
#endif
#else
inline constexpr bool address_sanitized = false;
#endif

/// From now on (`yes`) leave_to_exit() keeps objects instead of freeing them: `sqlmorph eval`,
/// whose process ends after its one run. Not under the address sanitizer, whose runs check that
/// everything is freed.
void leave_memory_to_exit(bool yes = true) noexcept;
bool memory_left_to_exit() noexcept;

namespace detail {
// Keeps `object` reachable until the process ends (in a list that is never freed, so that a leak
// checker sees it in use).
void keep_until_exit(const void* object);
}  // namespace detail

/// When memory is left to the exit: moves `object`'s contents into an object that is never freed,
/// leaving `object` empty (its own destructor then has nothing to free). Otherwise, or when there
/// is no memory for the move, nothing (the object is freed as usual). Safe in a destructor.
template <typename T>
void leave_to_exit(T& object) noexcept {
  static_assert(!std::is_const_v<T>, "a const object would be copied, not moved");
  if (!memory_left_to_exit()) return;
  T* kept = nullptr;
  try {
    kept = new T(std::move(object));
    detail::keep_until_exit(kept);
  } catch (...) {
    delete kept;
  }
}

}  // namespace sqlmorph::core
