#include "postgres_sink.hpp"

#include <sqlmorph/sql_lexer.hpp>

namespace sqlmorph::load {

postgres_sink::postgres_sink(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = PQerrorMessage(conn_);
    PQfinish(conn_);
    conn_ = nullptr;
    throw load_error("PostgreSQL: cannot connect (" + conninfo + "): " + message);
  }
  exec("SET client_min_messages = warning");
}

postgres_sink::~postgres_sink() {
  PQfinish(conn_);
}

void postgres_sink::exec(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  const std::string message = PQresultErrorMessage(r);
  PQclear(r);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    throw load_error("PostgreSQL: " + message + "(in: " + sql.substr(0, 300) + ")");
  }
}

void postgres_sink::exec_creating(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  const std::string sqlstate = state != nullptr ? state : "";
  const std::string message = PQresultErrorMessage(r);
  PQclear(r);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
  // duplicate_object, duplicate_database, duplicate_schema; unique_violation is what a catalog
  // index reports when another session created the same name after this one looked.
  if (sqlstate == "42710" || sqlstate == "42P04" || sqlstate == "42P06" || sqlstate == "23505") return;
  throw load_error("PostgreSQL: " + message + "(in: " + sql.substr(0, 300) + ")");
}

void postgres_sink::lock(const std::string& name) {
  exec("SELECT pg_advisory_lock(hashtextextended(" + quote_sql_string("sqlmorph-load:" + name) + ", 0))");
}

void postgres_sink::unlock(const std::string& name) {
  exec("SELECT pg_advisory_unlock(hashtextextended(" + quote_sql_string("sqlmorph-load:" + name) + ", 0))");
}

std::string postgres_sink::value(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    const std::string message = PQresultErrorMessage(r);
    PQclear(r);
    throw load_error("PostgreSQL: " + message + "(in: " + sql.substr(0, 300) + ")");
  }
  std::string out = PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "";
  PQclear(r);
  return out;
}

void postgres_sink::copy_in(
    const std::string& copy_sql,
    const std::function<void(const std::function<void(const std::string&)>&)>& produce) {
  PGresult* r = PQexec(conn_, copy_sql.c_str());
  if (PQresultStatus(r) != PGRES_COPY_IN) {
    const std::string message = PQresultErrorMessage(r);
    PQclear(r);
    throw load_error("PostgreSQL: " + message + "(in: " + copy_sql + ")");
  }
  PQclear(r);
  std::string buffer;
  const auto flush = [&] {
    if (buffer.empty()) return;
    if (PQputCopyData(conn_, buffer.data(), static_cast<int>(buffer.size())) != 1) {
      throw load_error(std::string("PostgreSQL: COPY failed: ") + PQerrorMessage(conn_));
    }
    buffer.clear();
  };
  produce([&](const std::string& line) {
    buffer += line;
    if (buffer.size() > (1 << 20)) flush();
  });
  flush();
  if (PQputCopyEnd(conn_, nullptr) != 1)
    throw load_error(std::string("PostgreSQL: COPY failed: ") + PQerrorMessage(conn_));
  r = PQgetResult(conn_);
  const ExecStatusType status = PQresultStatus(r);
  const std::string message = PQresultErrorMessage(r);
  PQclear(r);
  while ((r = PQgetResult(conn_)) != nullptr) PQclear(r);
  if (status != PGRES_COMMAND_OK)
    throw load_error("PostgreSQL: COPY failed: " + message + "(in: " + copy_sql + ")");
}

void create_database(postgres_sink& admin, const std::string& name, bool replace) {
  const bool exists =
      !admin.value("SELECT 1 FROM pg_database WHERE datname = " + quote_sql_string(name)).empty();
  if (exists && !replace)
    throw load_error("database " + name + " already exists (--replace drops and loads it again)");
  if (exists) admin.exec("DROP DATABASE " + quote_sql_name(name) + " WITH (FORCE)");
  admin.exec("CREATE DATABASE " + quote_sql_name(name) +
             " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
}

void create_table(postgres_sink& db, const table_plan& table, bool primary_key) {
  std::string sql = "CREATE TABLE " + quote_sql_name(table.target_name) + " (";
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    sql += (i ? ", " : "") + quote_sql_name(table.columns[i].target_name) + " " +
           type_name(table.columns[i].type);
  }
  if (primary_key && !table.primary_key.empty()) {
    sql += ", PRIMARY KEY (";
    for (std::size_t i = 0; i < table.primary_key.size(); ++i)
      sql += (i ? ", " : "") + quote_sql_name(table.primary_key[i]);
    sql += ")";
  }
  db.exec(sql + ")");
}

void create_reader_roles(postgres_sink& admin, const std::string& role, int workers) {
  // One loader at a time creates roles; another program may still create the same role at the
  // same moment, which exec_creating takes as success.
  admin.lock("roles");
  const auto create = [&](const std::string& name) {
    admin.exec_creating("CREATE ROLE " + quote_sql_name(name) + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE");
    if (admin.value("SELECT rolsuper::text FROM pg_roles WHERE rolname = " + quote_sql_string(name)) ==
        "true") {
      throw load_error("role " + name + " is a superuser: a reading role must not be one");
    }
  };
  create(role);
  for (int n = 1; n <= workers; ++n) {
    const std::string worker = role + "_" + std::to_string(n);
    create(worker);
    admin.exec("GRANT " + quote_sql_name(role) + " TO " + quote_sql_name(worker));
  }
  admin.unlock("roles");
}

void grant_reader(postgres_sink& admin, postgres_sink& db, const std::string& database,
                  const std::string& role) {
  admin.exec("REVOKE ALL ON DATABASE " + quote_sql_name(database) + " FROM PUBLIC");
  admin.exec("GRANT CONNECT ON DATABASE " + quote_sql_name(database) + " TO " + quote_sql_name(role));
  db.exec("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
  db.exec("GRANT USAGE ON SCHEMA public TO " + quote_sql_name(role));
  db.exec("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + quote_sql_name(role));
}

}  // namespace sqlmorph::load
