#include "duckdb_library.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <charconv>
#include <stdexcept>
#include <type_traits>

namespace sqlmorph::duckdb_api {

#ifndef SQLMORPH_DUCKDB_NPM_PACKAGE
#define SQLMORPH_DUCKDB_NPM_PACKAGE "@duckdb/node-bindings-linux-x64"
#endif
#ifndef SQLMORPH_DUCKDB_NPM_VERSION
#define SQLMORPH_DUCKDB_NPM_VERSION "1.x"
#endif

std::string how_to_get_library() {
  return "run `make deps` in sqlmorph's source tree (it fetches the npm package " SQLMORPH_DUCKDB_NPM_PACKAGE
         "@" SQLMORPH_DUCKDB_NPM_VERSION
         ", whose libduckdb.so the build copies beside the plugins, into duckdb/libduckdb.so), or get "
         "libduckdb.so (DuckDB " +
         std::to_string(min_major) + "." + std::to_string(min_minor) +
         " or later) from that npm package or DuckDB's C/C++ release archive and set the backend's option "
         "library to its path";
}

std::string default_library_path() {
  try {
    const std::filesystem::path here = boost::dll::this_line_location();
    const std::filesystem::path beside = here.parent_path() / "duckdb" / "libduckdb.so";
    if (std::filesystem::exists(beside)) return beside.string();
  } catch (const std::exception&) {  // no location: the system's library path
  }
  return "libduckdb.so";
}

bool parse_version(const std::string& text, int& major, int& minor) {
  const char* p = text.data();
  const char* end = p + text.size();
  if (p != end && *p == 'v') ++p;
  auto r = std::from_chars(p, end, major);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return false;
  r = std::from_chars(r.ptr + 1, end, minor);
  return r.ec == std::errc();
}

std::shared_ptr<const library> library::load(const std::string& path) {
  auto lib = std::make_shared<library>();
  const bool bare = path.find('/') == std::string::npos;
  if (!bare && !std::filesystem::exists(path)) {
    throw std::runtime_error("DuckDB's library " + path + " does not exist: " + how_to_get_library());
  }
  try {
    auto mode = boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local;
    if (bare) mode = mode | boost::dll::load_mode::search_system_folders;
    lib->lib_.load(path, mode);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load DuckDB's library " + path + " (" + e.what() +
                             "): " + how_to_get_library());
  }
  try {
    lib->location_ = lib->lib_.location();
  } catch (const std::exception&) {
    lib->location_ = path;
  }
  const auto resolve = [&](auto& fn, const char* name) {
    if (!lib->lib_.has(name)) {
      throw std::runtime_error(lib->location_.string() + " is not a usable DuckDB C API library: it has no " +
                               name + "; " + how_to_get_library());
    }
    fn = &lib->lib_.get<std::remove_pointer_t<std::remove_reference_t<decltype(fn)>>>(name);
  };
  functions& f = lib->f_;
  resolve(f.library_version, "duckdb_library_version");
  lib->version_ = f.library_version() ? f.library_version() : "";
  int major = 0;
  int minor = 0;
  if (!parse_version(lib->version_, major, minor) || major != min_major || minor < min_minor) {
    throw std::runtime_error(lib->location_.string() + " is DuckDB " +
                             (lib->version_.empty() ? std::string("of an unknown version") : lib->version_) +
                             ", this backend needs DuckDB " + std::to_string(min_major) + ".x from " +
                             std::to_string(min_major) + "." + std::to_string(min_minor) + ": " +
                             how_to_get_library());
  }
  resolve(f.create_config, "duckdb_create_config");
  resolve(f.set_config, "duckdb_set_config");
  resolve(f.destroy_config, "duckdb_destroy_config");
  resolve(f.open_ext, "duckdb_open_ext");
  resolve(f.close, "duckdb_close");
  resolve(f.connect, "duckdb_connect");
  resolve(f.disconnect, "duckdb_disconnect");
  resolve(f.interrupt, "duckdb_interrupt");
  resolve(f.free, "duckdb_free");
  resolve(f.prepare, "duckdb_prepare");
  resolve(f.prepare_error, "duckdb_prepare_error");
  resolve(f.destroy_prepare, "duckdb_destroy_prepare");
  resolve(f.prepared_statement_type, "duckdb_prepared_statement_type");
  resolve(f.pending_prepared_streaming, "duckdb_pending_prepared_streaming");
  resolve(f.pending_error, "duckdb_pending_error");
  resolve(f.destroy_pending, "duckdb_destroy_pending");
  resolve(f.execute_pending, "duckdb_execute_pending");
  resolve(f.query, "duckdb_query");
  resolve(f.destroy_result, "duckdb_destroy_result");
  resolve(f.result_error, "duckdb_result_error");
  resolve(f.column_count, "duckdb_column_count");
  resolve(f.column_name, "duckdb_column_name");
  resolve(f.column_logical_type, "duckdb_column_logical_type");
  resolve(f.fetch_chunk, "duckdb_fetch_chunk");
  resolve(f.data_chunk_get_size, "duckdb_data_chunk_get_size");
  resolve(f.data_chunk_get_vector, "duckdb_data_chunk_get_vector");
  resolve(f.destroy_data_chunk, "duckdb_destroy_data_chunk");
  resolve(f.vector_get_data, "duckdb_vector_get_data");
  resolve(f.vector_get_validity, "duckdb_vector_get_validity");
  resolve(f.validity_row_is_valid, "duckdb_validity_row_is_valid");
  resolve(f.list_vector_get_child, "duckdb_list_vector_get_child");
  resolve(f.array_vector_get_child, "duckdb_array_vector_get_child");
  resolve(f.struct_vector_get_child, "duckdb_struct_vector_get_child");
  resolve(f.get_type_id, "duckdb_get_type_id");
  resolve(f.destroy_logical_type, "duckdb_destroy_logical_type");
  resolve(f.decimal_width, "duckdb_decimal_width");
  resolve(f.decimal_scale, "duckdb_decimal_scale");
  resolve(f.decimal_internal_type, "duckdb_decimal_internal_type");
  resolve(f.enum_internal_type, "duckdb_enum_internal_type");
  resolve(f.enum_dictionary_size, "duckdb_enum_dictionary_size");
  resolve(f.enum_dictionary_value, "duckdb_enum_dictionary_value");
  resolve(f.list_type_child_type, "duckdb_list_type_child_type");
  resolve(f.array_type_child_type, "duckdb_array_type_child_type");
  resolve(f.array_type_array_size, "duckdb_array_type_array_size");
  resolve(f.map_type_key_type, "duckdb_map_type_key_type");
  resolve(f.map_type_value_type, "duckdb_map_type_value_type");
  resolve(f.struct_type_child_count, "duckdb_struct_type_child_count");
  resolve(f.struct_type_child_name, "duckdb_struct_type_child_name");
  resolve(f.struct_type_child_type, "duckdb_struct_type_child_type");
  resolve(f.logical_type_get_alias, "duckdb_logical_type_get_alias");
  return lib;
}

}  // namespace sqlmorph::duckdb_api
