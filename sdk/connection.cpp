// The default answers of the optional connection operations, and query status names.

#include "sqlmorph/backend.hpp"

namespace sqlmorph {

std::string_view query_status_name(query_status s) noexcept {
  switch (s) {
    case query_status::ok:
      return "ok";
    case query_status::error:
      return "error";
    case query_status::timeout:
      return "timeout";
    case query_status::db_missing:
      return "db_missing";
    case query_status::backend_error:
      return "backend_error";
  }
  return "unknown";
}

query_outcome connection::check(std::string_view, const exec_limits&) {
  return query_outcome::failure(query_status::backend_error,
                                "this backend cannot check SQL without executing it");
}

query_outcome connection::describe_schema(const exec_limits&) {
  return query_outcome::failure(query_status::backend_error, "this backend cannot describe its schema");
}

}  // namespace sqlmorph
