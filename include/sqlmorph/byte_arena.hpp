#pragma once
/// \file byte_arena.hpp
/// Stable storage for the text and blob bytes of a result.

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace sqlmorph {

/// Append-only byte storage. Bytes copied in never move (chunks are separately allocated), so
/// `std::string_view`s into the arena stay valid for the arena's lifetime, including after the
/// arena itself is moved. Not thread-safe for writers; readers may share it once filled.
class byte_arena {
 public:
  byte_arena() = default;
  byte_arena(byte_arena&&) noexcept = default;
  byte_arena& operator=(byte_arena&&) noexcept = default;
  byte_arena(const byte_arena&) = delete;
  byte_arena& operator=(const byte_arena&) = delete;

  /// Copies `bytes` into the arena and returns a view of the copy.
  std::string_view store(std::string_view bytes);

  /// Total bytes stored (payload only).
  std::size_t stored_bytes() const noexcept { return stored_; }
  /// Bytes reserved from the allocator (payload plus unused chunk tails).
  std::size_t reserved_bytes() const noexcept { return reserved_; }

  void clear() noexcept;

 private:
  static constexpr std::size_t first_chunk_size = 256;
  static constexpr std::size_t max_chunk_size = 64 * 1024;

  std::vector<std::unique_ptr<char[]>> chunks_;
  char* cursor_ = nullptr;
  std::size_t left_ = 0;
  std::size_t stored_ = 0;
  std::size_t reserved_ = 0;
  std::size_t next_chunk_ = first_chunk_size;
};

}  // namespace sqlmorph
