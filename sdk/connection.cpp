// The backend contract, once for every engine: what `connection::execute`, `check` and
// `describe_schema` do around a backend's hooks, and how `backend::connect` hands a connection its
// capabilities.

#include <algorithm>
#include <cstdio>
#include <exception>

#include "sqlmorph/backend.hpp"
#include "sqlmorph/statement_gate.hpp"

namespace sqlmorph {
namespace {

using clock = std::chrono::steady_clock;

double ms_since(clock::time_point start) {
  return std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

// The uniform words of every status a hook reports.
query_outcome outcome_of(run_status st, const exec_limits& limits, clock::time_point start) {
  if (st.status == query_status::timeout) {
    std::string message = "exceeded the time limit of " + seconds_text(limits.timeout_seconds) + " s";
    if (!st.message.empty()) message += " (" + st.message + ")";
    return query_outcome::failure(query_status::timeout, std::move(message), ms_since(start));
  }
  if (st.message.empty()) st.message = "the backend gave no message";
  return query_outcome::failure(st.status, std::move(st.message), ms_since(start));
}

// A hook that throws (an allocation failure, a bug) ends the statement, not the run.
template <class Hook>
run_status guarded(Hook&& hook) noexcept {
  try {
    return hook();
  } catch (const std::exception& e) {
    try {
      return run_status::backend_failure(std::string("the backend failed: ") + e.what());
    } catch (...) {
    }
  } catch (...) {
  }
  return {query_status::backend_error, {}};
}

}  // namespace

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

std::string_view statement_gate_name(statement_gate g) noexcept {
  return g == statement_gate::engine ? "engine" : "sdk";
}

double statement_request::seconds_left() const noexcept {
  if (limits.timeout_seconds <= 0) return 0;
  return std::max(0.001, limits.timeout_seconds - ms_since(start) / 1000.0);
}

query_outcome connection::through_gate_(std::string_view sql, const exec_limits& limits, bool prepare_only) {
  const auto start = clock::now();
  try {
    if (sql.find('\0') != std::string_view::npos) {
      return outcome_of(run_status::error("the SQL contains a NUL byte"), limits, start);
    }
    std::string_view statement = sql;
    if (capabilities_.gate == statement_gate::sdk) {
      const statement_check gate = check_read_only_statement(sql);
      if (!gate.ok) return outcome_of(run_status::error(gate.error), limits, start);
      statement = gate.statement;
    }
    const statement_request request{statement, limits, start};
    query_outcome out;
    if (prepare_only) {
      const run_status st = guarded([&] { return prepare(request); });
      if (!st.ok()) return outcome_of(st, limits, start);
    } else {
      row_sink sink(out.rows, limits);
      const run_status st = guarded([&] { return run(request, sink); });
      if (!st.ok()) return outcome_of(st, limits, start);
      if (!sink.has_columns()) return outcome_of(run_status::not_a_query(), limits, start);
      out.message = sink.cap_message();
    }
    out.elapsed_ms = ms_since(start);
    return out;
  } catch (const std::exception& e) {  // allocation failures around the hook: execute never throws
    return query_outcome::failure(query_status::backend_error, std::string("the backend failed: ") + e.what(),
                                  ms_since(start));
  }
}

query_outcome connection::execute(std::string_view sql, const exec_limits& limits) {
  return through_gate_(sql, limits, false);
}

query_outcome connection::check(std::string_view sql, const exec_limits& limits) {
  if (!capabilities_.checks_without_executing) {
    return query_outcome::failure(query_status::backend_error,
                                  "this backend cannot check SQL without executing it");
  }
  return through_gate_(sql, limits, true);
}

query_outcome connection::describe_schema(const exec_limits& limits) {
  if (!capabilities_.describes_schema) {
    return query_outcome::failure(query_status::backend_error, "this backend cannot describe its schema");
  }
  const auto start = clock::now();
  std::string ddl;
  const run_status st = guarded([&] { return schema_ddl(limits, ddl); });
  if (!st.ok()) return outcome_of(st, limits, start);
  query_outcome out;
  out.message = std::move(ddl);
  out.elapsed_ms = ms_since(start);
  return out;
}

run_status connection::prepare(const statement_request&) {
  return run_status::backend_failure("this backend cannot check SQL without executing it");
}

run_status connection::schema_ddl(const exec_limits&, std::string&) {
  return run_status::backend_failure("this backend cannot describe its schema");
}

connect_outcome backend::connect(std::string_view target) const {
  connect_outcome out;
  try {
    out = open(target);
    if (out.conn != nullptr) {
      out.conn->capabilities_ = capabilities();
    } else if (out.status == query_status::ok) {
      out.status = query_status::backend_error;
      if (out.message.empty()) out.message = "the backend opened no connection and gave no reason";
    }
  } catch (const std::exception& e) {
    out.conn.reset();
    out.status = query_status::backend_error;
    out.message = std::string("cannot connect: ") + e.what();
  }
  return out;
}

}  // namespace sqlmorph
