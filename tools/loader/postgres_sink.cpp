#include "postgres_sink.hpp"

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

std::string quote_literal(const std::string& s) {
  std::string out = "'";
  for (const char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

void create_database(postgres_sink& admin, const std::string& name, bool replace) {
  const bool exists =
      !admin.value("SELECT 1 FROM pg_database WHERE datname = " + quote_literal(name)).empty();
  if (exists && !replace)
    throw load_error("database " + name + " already exists (--replace drops and loads it again)");
  if (exists) admin.exec("DROP DATABASE " + quote_identifier(name) + " WITH (FORCE)");
  admin.exec("CREATE DATABASE " + quote_identifier(name) +
             " TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
}

void create_table(postgres_sink& db, const table_plan& table) {
  std::string sql = "CREATE TABLE " + quote_identifier(table.target_name) + " (";
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    sql += (i ? ", " : "") + quote_identifier(table.columns[i].target_name) + " " +
           type_name(table.columns[i].type);
  }
  db.exec(sql + ")");
}

void grant_reader(postgres_sink& admin, postgres_sink& db, const std::string& database,
                  const std::string& role) {
  const bool exists = !admin.value("SELECT 1 FROM pg_roles WHERE rolname = " + quote_literal(role)).empty();
  if (!exists)
    admin.exec("CREATE ROLE " + quote_identifier(role) + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE");
  if (admin.value("SELECT rolsuper::text FROM pg_roles WHERE rolname = " + quote_literal(role)) == "true") {
    throw load_error("role " + role + " is a superuser: a reading role must not be one");
  }
  admin.exec("REVOKE ALL ON DATABASE " + quote_identifier(database) + " FROM PUBLIC");
  admin.exec("GRANT CONNECT ON DATABASE " + quote_identifier(database) + " TO " + quote_identifier(role));
  db.exec("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
  db.exec("GRANT USAGE ON SCHEMA public TO " + quote_identifier(role));
  db.exec("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + quote_identifier(role));
}

}  // namespace sqlmorph::load
