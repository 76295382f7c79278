#pragma once
/// \file plugin.hpp
/// The plugin ABI: what a plugin library exports, and helpers to write one.
///
/// A plugin library exports one C function, `sqlmorph_plugin_manifest_v1`, returning a manifest.
/// The manifest's leading fields are plain C (ABI version, size, build fingerprint) so the host
/// can check them before any C++ object crosses the boundary: the host refuses a library whose ABI
/// version or fingerprint (compiler, standard library, SDK headers, sanitizers) differs from its own.
/// Only then does it use the component table, whose create/destroy functions exchange C++
/// objects. Exceptions never cross the C entry points: `create` reports failures as text.
///
/// Writing a plugin (see docs/plugin-authoring.md):
///
///     class my_matcher final : public sqlmorph::column_matcher {
///      public:
///       explicit my_matcher(const sqlmorph::option_values& o) : strict_(o.get_bool("strict")) {}
///      protected:
///       sqlmorph::column_alignment do_align_(const sqlmorph::match_input& in) const override;
///      private:
///       bool strict_;
///     };
///
///     static const sqlmorph_option_v1 my_options[] = {
///         {"strict", "bool", "true", "refuse near-miss names"}};
///
///     SQLMORPH_PLUGIN_LIBRARY("columns_mine", "1.0.0",
///         sqlmorph::plugin::component<my_matcher>("mine", "1.0.0", "My column matcher", my_options))

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string_view>

#include "sqlmorph/options.hpp"
#include "sqlmorph/sdk_fingerprint.hpp"
#include "sqlmorph/version.hpp"

extern "C" {

/// The host services a plugin may use (given to the manifest function).
typedef struct sqlmorph_host_v1 {
  std::uint32_t abi_version;
  std::uint32_t struct_size;
  void* context;
  /// Logs through the host's logger. level: 0 trace, 1 debug, 2 info, 3 warn, 4 error.
  void (*log)(void* context, int level, const char* message, std::size_t length);
  /// Limits the SQLite memory of the calling thread to `bytes` (0: no limit) and returns 1, when the
  /// host counts SQLite's memory per thread (it set SQLite's allocator before SQLite started);
  /// returns 0, doing nothing, when it does not (then SQLite's process-wide heap limit is all there
  /// is). Absent from hosts whose struct_size ends before it.
  int (*limit_sqlite_heap_of_thread)(void* context, std::int64_t bytes);
} sqlmorph_host_v1;

/// One declared option of a component.
typedef struct sqlmorph_option_v1 {
  const char* name;
  /// "bool", "int", "double", "string", or a component kind such as "cell_matcher".
  const char* type;
  /// The default, as text ("true", "3", "0.5", "exact"); NULL makes the option required.
  const char* default_value;
  const char* description;
  /// SQLMORPH_OPTION_* bits; 0 (the default when an initializer stops at the description) for none.
  std::uint32_t flags = 0;
} sqlmorph_option_v1;

/// A bool option of a scorer that a run may evaluate with both values, as two variants of every
/// technique that uses the scorer without fixing the option (`--penalize-extra-pred-cols
/// true|false|both`, Lua `penalize =`). Records report the variant's value as
/// `penalize_extra_pred_cols`, SQLMorph's name for it. At most one option of a component.
#define SQLMORPH_OPTION_SWEEPABLE 1u

/// One component a library provides.
typedef struct sqlmorph_component_v1 {
  /// "backend", "column_matcher", "row_matcher", "cell_matcher", "scorer", "normalizer",
  /// "sql_rewriter", "sql_candidates", "embedder", "judge".
  const char* kind;
  const char* name;
  const char* version;
  const char* description;
  const sqlmorph_option_v1* options;
  std::uint32_t option_count;
  /// Creates an instance. `options` points to a complete, validated `sqlmorph::option_values`.
  /// Returns a pointer to the kind's interface (e.g. `sqlmorph::column_matcher*`), or NULL with a
  /// message in `error` (NUL-terminated, at most `error_size` bytes).
  void* (*create)(const void* options, char* error, std::size_t error_size);
  /// Destroys an instance returned by `create`.
  void (*destroy)(void* instance);
} sqlmorph_component_v1;

/// What a library exports. `abi_version` and `struct_size` come first and never move.
typedef struct sqlmorph_manifest_v1 {
  std::uint32_t abi_version;
  std::uint32_t struct_size;
  const char* fingerprint;
  const char* library;
  const char* library_version;
  const sqlmorph_component_v1* components;
  std::uint32_t component_count;
} sqlmorph_manifest_v1;

typedef const sqlmorph_manifest_v1* (*sqlmorph_manifest_fn_v1)(const sqlmorph_host_v1* host);
}

/// The exported entry point's name.
#define SQLMORPH_MANIFEST_SYMBOL "sqlmorph_plugin_manifest_v1"

#define SQLMORPH_STRINGIFY_IMPL_(x) #x
#define SQLMORPH_STRINGIFY_(x) SQLMORPH_STRINGIFY_IMPL_(x)

#if defined(__SANITIZE_ADDRESS__)
#define SQLMORPH_SANITIZER_TAG_ "; asan"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SQLMORPH_SANITIZER_TAG_ "; asan"
#endif
#endif
#ifndef SQLMORPH_SANITIZER_TAG_
#define SQLMORPH_SANITIZER_TAG_ ""
#endif

#if defined(__GLIBCXX__)
#define SQLMORPH_STDLIB_TAG_ \
  "libstdc++ " SQLMORPH_STRINGIFY_(__GLIBCXX__) " cxx11-abi " SQLMORPH_STRINGIFY_(_GLIBCXX_USE_CXX11_ABI)
#elif defined(_LIBCPP_VERSION)
#define SQLMORPH_STDLIB_TAG_ "libc++ " SQLMORPH_STRINGIFY_(_LIBCPP_VERSION)
#else
#define SQLMORPH_STDLIB_TAG_ "unknown stdlib"
#endif

/// Everything that must be identical between the host and a plugin for C++ objects to cross:
/// the sqlmorph version, a hash of the SDK headers, the compiler, the standard library and its
/// ABI, the language standard and sanitizer instrumentation.
#define SQLMORPH_BUILD_FINGERPRINT                                                                   \
  "sqlmorph " SQLMORPH_VERSION_STRING                                                                \
  "; abi " SQLMORPH_STRINGIFY_(SQLMORPH_PLUGIN_ABI_VERSION) "; sdk " SQLMORPH_SDK_HASH               \
                                                            "; compiler " __VERSION__                \
                                                            "; " SQLMORPH_STDLIB_TAG_                \
                                                            "; c++" SQLMORPH_STRINGIFY_(__cplusplus) \
                                                                SQLMORPH_SANITIZER_TAG_

namespace sqlmorph::plugin {

/// The host services given to this library (null until the manifest function ran).
inline const sqlmorph_host_v1*& host() noexcept {
  static const sqlmorph_host_v1* h = nullptr;
  return h;
}

enum class log_level : int { trace = 0, debug = 1, info = 2, warn = 3, error = 4 };

/// Logs through the host's logger (dropped if there is no host).
inline void log(log_level level, std::string_view message) noexcept {
  const sqlmorph_host_v1* h = host();
  if (h != nullptr && h->log != nullptr)
    h->log(h->context, static_cast<int>(level), message.data(), message.size());
}

/// The host's limit_sqlite_heap_of_thread (see sqlmorph_host_v1): false when the host has none or
/// does not count SQLite's memory per thread.
inline bool limit_sqlite_heap_of_thread(std::int64_t bytes) noexcept {
  const sqlmorph_host_v1* h = host();
  if (h == nullptr || h->struct_size < offsetof(sqlmorph_host_v1, limit_sqlite_heap_of_thread) +
                                           sizeof(h->limit_sqlite_heap_of_thread))
    return false;
  return h->limit_sqlite_heap_of_thread != nullptr && h->limit_sqlite_heap_of_thread(h->context, bytes) != 0;
}

namespace detail {
inline void copy_error(char* out, std::size_t size, const char* message) noexcept {
  if (out == nullptr || size == 0) return;
  const std::size_t n = std::min(std::strlen(message), size - 1);
  std::memcpy(out, message, n);
  out[n] = '\0';
}

template <class Impl>
void* create(const void* options, char* error, std::size_t error_size) noexcept {
  using interface = typename Impl::interface_type;
  try {
    interface* obj = new Impl(*static_cast<const sqlmorph::option_values*>(options));
    return static_cast<void*>(obj);
  } catch (const std::exception& e) {
    copy_error(error, error_size, e.what());
  } catch (...) {
    copy_error(error, error_size, "unknown error while creating the component");
  }
  return nullptr;
}

template <class Interface>
void destroy(void* instance) noexcept {
  delete static_cast<Interface*>(instance);
}
}  // namespace detail

/// Describes one component of a library. `Impl` derives from one of the SDK interfaces and has a
/// constructor taking `const sqlmorph::option_values&`.
template <class Impl>
constexpr sqlmorph_component_v1 component(const char* name, const char* version, const char* description,
                                          std::span<const sqlmorph_option_v1> options = {}) {
  using interface = typename Impl::interface_type;
  return sqlmorph_component_v1{interface::kind_name,
                               name,
                               version,
                               description,
                               options.data(),
                               static_cast<std::uint32_t>(options.size()),
                               &detail::create<Impl>,
                               &detail::destroy<interface>};
}

}  // namespace sqlmorph::plugin

/// Defines the library's exported manifest function. Arguments after the version are
/// `sqlmorph::plugin::component<...>(...)` descriptions.
#define SQLMORPH_PLUGIN_LIBRARY(library_name, library_version, ...)                                          \
  extern "C" __attribute__((visibility("default"))) const sqlmorph_manifest_v1* sqlmorph_plugin_manifest_v1( \
      const sqlmorph_host_v1* host_services) {                                                               \
    ::sqlmorph::plugin::host() = host_services;                                                              \
    static const sqlmorph_component_v1 components[] = {__VA_ARGS__};                                         \
    static const sqlmorph_manifest_v1 manifest = {                                                           \
        SQLMORPH_PLUGIN_ABI_VERSION,                                                                         \
        static_cast<std::uint32_t>(sizeof(sqlmorph_manifest_v1)),                                            \
        SQLMORPH_BUILD_FINGERPRINT,                                                                          \
        library_name,                                                                                        \
        library_version,                                                                                     \
        components,                                                                                          \
        static_cast<std::uint32_t>(sizeof(components) / sizeof(components[0]))};                             \
    return &manifest;                                                                                        \
  }
