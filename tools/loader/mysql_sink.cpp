#include "mysql_sink.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "../../plugins/backend_mysql/mysql_target.hpp"

namespace sqlmorph::load {
namespace {

// The lines of one LOAD DATA LOCAL, handed to the client library when the server asks for the
// "file" (mysql_set_local_infile_handler).
struct infile_buffer {
  const std::string* data = nullptr;
  std::size_t at = 0;
};

int infile_init(void** ptr, const char*, void* userdata) {
  auto* b = static_cast<infile_buffer*>(userdata);
  b->at = 0;
  *ptr = b;
  return 0;
}

int infile_read(void* ptr, char* buf, unsigned int size) {
  auto* b = static_cast<infile_buffer*>(ptr);
  const std::size_t n = std::min<std::size_t>(size, b->data->size() - b->at);
  std::memcpy(buf, b->data->data() + b->at, n);
  b->at += n;
  return static_cast<int>(n);
}

void infile_end(void*) {}

int infile_error(void*, char* message, unsigned int size) {
  std::strncpy(message, "cannot read the loader's rows", size);
  return 1;
}

// Lines are sent in loads of about this many bytes.
constexpr std::size_t load_chunk = 16u << 20;

}  // namespace

std::string mysql_identifier(const std::string& name) {
  std::string out = "`";
  for (const char c : name) {
    out += c;
    if (c == '`') out += '`';
  }
  return out + "`";
}

std::vector<std::string> mysql_column_types(const table_plan& table) {
  // Bytes a row may take (MySQL's limit is 65,535; a VARCHAR(n) of utf8mb4 counts 4n + 2, a
  // LONGTEXT or LONGBLOB 12, a number or date at most 8).
  constexpr std::size_t varchar_max = 512;
  std::size_t budget = 65000;
  for (const column_plan& c : table.columns) budget -= c.type == column_type::text ? 12 : 8;
  std::vector<std::string> out;
  for (const column_plan& c : table.columns) {
    switch (c.type) {
      case column_type::date:
        out.emplace_back("DATE");
        break;
      case column_type::timestamp:
        out.emplace_back(c.fractional_seconds ? "DATETIME(6)" : "DATETIME");
        break;
      case column_type::bigint:
        out.emplace_back("BIGINT");
        break;
      case column_type::double_precision:
        out.emplace_back("DOUBLE");
        break;
      case column_type::bytea:
        out.emplace_back("LONGBLOB");
        break;
      case column_type::text: {
        const std::size_t n =
            c.texts + c.integers + c.reals + c.blobs == 0 ? 255 : std::max<std::size_t>(c.max_text_bytes, 1);
        if (n <= varchar_max && 4 * n + 2 - 12 <= budget) {
          budget -= 4 * n + 2 - 12;
          out.push_back("VARCHAR(" + std::to_string(n) + ")");
        } else {
          out.emplace_back("LONGTEXT");
        }
        break;
      }
    }
  }
  return out;
}

mysql_sink::mysql_sink(const std::string& target) {
  mysql::mysql_target t;
  try {
    t = mysql::parse_target(target);
  } catch (const std::invalid_argument& e) {
    throw load_error(e.what());
  }
  conn_ = mysql_init(nullptr);
  if (conn_ == nullptr) throw load_error("MySQL: out of memory");
  mysql_optionsv(conn_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  const unsigned yes = 1;
  mysql_optionsv(conn_, MYSQL_OPT_LOCAL_INFILE, &yes);
  if (mysql_real_connect(conn_, t.host.empty() ? nullptr : t.host.c_str(),
                         t.user.empty() ? nullptr : t.user.c_str(),
                         t.password.empty() ? nullptr : t.password.c_str(), nullptr, t.port,
                         t.socket.empty() ? nullptr : t.socket.c_str(), 0) == nullptr) {
    const std::string message = mysql_error(conn_);
    mysql_close(conn_);
    conn_ = nullptr;
    throw load_error("cannot connect to MySQL/MariaDB: " + message);
  }
  // Invalid values fail the load instead of being truncated with a warning.
  exec("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'");
}

mysql_sink::~mysql_sink() {
  if (conn_ != nullptr) mysql_close(conn_);
}

void mysql_sink::exec(const std::string& sql) {
  if (mysql_real_query(conn_, sql.data(), sql.size()) != 0) {
    throw load_error("MySQL: " + std::string(mysql_error(conn_)) + " (in: " + sql.substr(0, 200) + ")");
  }
  if (MYSQL_RES* r = mysql_store_result(conn_)) mysql_free_result(r);
}

std::string mysql_sink::value(const std::string& sql) {
  if (mysql_real_query(conn_, sql.data(), sql.size()) != 0) {
    throw load_error("MySQL: " + std::string(mysql_error(conn_)) + " (in: " + sql.substr(0, 200) + ")");
  }
  MYSQL_RES* r = mysql_store_result(conn_);
  if (r == nullptr) return "";
  std::string out;
  if (MYSQL_ROW row = mysql_fetch_row(r); row != nullptr && row[0] != nullptr) {
    out.assign(row[0], mysql_fetch_lengths(r)[0]);
  }
  mysql_free_result(r);
  return out;
}

void mysql_sink::load_lines(
    const table_plan& table, const std::string& database,
    const std::function<void(const std::function<void(const std::string&)>&)>& produce) {
  // Text fields land in their columns; a bytea field (`\x0aff` once unescaped) through a variable.
  std::string fields;
  std::string sets;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    const column_plan& c = table.columns[i];
    fields += fields.empty() ? "" : ", ";
    if (c.type == column_type::bytea) {
      const std::string var = "@v" + std::to_string(i);
      fields += var;
      sets += (sets.empty() ? " SET " : ", ") + mysql_identifier(c.target_name) + " = UNHEX(SUBSTRING(" +
              var + ", 3))";
    } else {
      fields += mysql_identifier(c.target_name);
    }
  }
  const std::string sql = "LOAD DATA LOCAL INFILE 'sqlmorph-rows' INTO TABLE " + mysql_identifier(database) +
                          "." + mysql_identifier(table.target_name) +
                          " CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\\t' "
                          "ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (" +
                          fields + ")" + sets;
  std::string buffer;
  infile_buffer source;
  source.data = &buffer;
  mysql_set_local_infile_handler(conn_, infile_init, infile_read, infile_end, infile_error, &source);
  const auto flush = [&] {
    if (buffer.empty()) return;
    exec(sql);
    const unsigned warnings = mysql_warning_count(conn_);
    if (warnings > 0) {
      throw load_error("MySQL: loading " + table.source_name + " gave " + std::to_string(warnings) +
                       " warning(s): " + value("SHOW WARNINGS"));
    }
    buffer.clear();
  };
  produce([&](const std::string& line) {
    buffer += line;
    if (buffer.size() >= load_chunk) flush();
  });
  flush();
  mysql_set_local_infile_default(conn_);
}

}  // namespace sqlmorph::load
