// `sqlmorph judge`: what the judges say about one question and one SQL, with or without a database.

#include <chrono>
#include <cstdio>
#include <iostream>

#include <spdlog/spdlog.h>

#include "app/environment.hpp"
#include "app/preflight.hpp"
#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "config/run_values.hpp"
#include "datasets/database_folder.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "judges/judge_panel.hpp"
#include "output/record_json.hpp"
#include "output/text_table.hpp"

namespace sqlmorph::core {
namespace {

struct judge_options {
  std::string question;
  std::string sql;
  std::vector<std::string> judges;
  std::optional<std::string> db;
  std::optional<std::string> db_id;
  std::optional<std::string> db_root;
  std::optional<std::string> backend;
  std::optional<std::string> schema;
  std::optional<std::string> schema_from;
  std::optional<std::string> dialect;
  std::string hints;
  std::optional<double> timeout;
  bool json = false;
  bool no_preflight = false;
  bool show_prompt = false;
};

constexpr std::size_t rationale_width = 72;

std::string shortened(const std::string& text, std::size_t width) {
  std::string flat;
  for (const char c : text) flat += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (flat.size() <= width) return flat;
  std::size_t cut = width - 3;
  // Do not cut a UTF-8 sequence in two.
  while (cut > 0 && (static_cast<unsigned char>(flat[cut]) & 0xC0) == 0x80) --cut;
  return flat.substr(0, cut) + "...";
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A database given on the command line: its path and the name {db_id} stands for.
struct database_choice {
  std::string path;
  std::string db_id;
};

std::optional<database_choice> database_of(const judge_options& o) {
  if (o.db && o.db_id) throw usage_error("give --db PATH or --db-id ID --db-root DIR, not both");
  if (o.db_root && !o.db_id) throw usage_error("--db-root goes with --db-id");
  if (o.db) return database_choice{*o.db, std::filesystem::path(*o.db).stem().string()};
  if (o.db_id) {
    if (!o.db_root) throw usage_error("--db-id needs --db-root DIR (databases are DIR/ID/ID.sqlite)");
    return database_choice{database_file_in(*o.db_root, *o.db_id, "--db-id").string(), *o.db_id};
  }
  return std::nullopt;
}

std::unique_ptr<connection> open_database(const configured_backend& b, const database_choice& db,
                                          const char* option) {
  connect_outcome c = b.engine->connect(b.target_for(db.db_id, db.path));
  if (!c.conn) {
    throw usage_error(std::string(option) + ": cannot open " + db.path + " with backend '" + b.name + "' (" +
                      std::string(query_status_name(c.status)) + "): " + c.message);
  }
  return std::move(c.conn);
}

int run_judge(const global_options& g, const judge_options& o) {
  apply_logging(g);
  if (o.schema && o.schema_from) throw usage_error("give --schema FILE or --schema-from DB, not both");
  const auto env = environment::load(g.config_file);
  const config& cfg = env->config();
  const std::optional<database_choice> db = database_of(o);

  // Default judges: those sqlmorph.toml declares, else sql_correctness.
  std::vector<std::string> names = o.judges;
  if (names.empty()) {
    for (const judge_config& j : cfg.judges) names.push_back(j.name);
    if (names.empty()) names.push_back("sql_correctness");
  }
  const std::vector<configured_judge> judges = resolve_judges(cfg, env->registry(), names, o.timeout);
  if (!o.no_preflight) check_remote_services({}, judges, env->registry());

  route_choice choice;
  choice.backend = o.backend;
  const auto routes = env->routes(choice);
  // Without --db, the database the schema comes from is also the one judges check the SQL against.
  std::optional<database_choice> target = db;
  if (!target && o.schema_from) {
    target = database_choice{*o.schema_from, std::filesystem::path(*o.schema_from).stem().string()};
  }
  example ex;
  ex.id = "cli";
  if (target) {
    ex.db = target->path;
    ex.db_id = target->db_id;
  }
  const configured_backend& backend = routes->for_role(ex, query_role::pred);
  // The limits of a predicted query, as a run would set them (--timeout over sqlmorph.toml).
  limit_request asked;
  asked.timeout = o.timeout;
  const exec_limits limits = run_limits_from(cfg, asked).pred;

  std::unique_ptr<connection> conn;
  if (target) conn = open_database(backend, *target, o.db ? "--db" : o.db_id ? "--db-id" : "--schema-from");

  judge_request request;
  request.id = ex.id;
  request.question = o.question;
  request.sql = o.sql;
  request.hints = o.hints;
  request.dialect = o.dialect ? *o.dialect : backend.engine->capabilities().dialect;
  request.target = conn.get();
  std::string schema_source = "none";
  if (o.schema) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*o.schema, ec))
      throw usage_error("--schema " + *o.schema + " is not a readable file");
    request.schema = read_file(*o.schema);
    schema_source = *o.schema;
  } else if (conn) {
    std::unique_ptr<connection> other;
    connection* from = conn.get();
    std::string from_path = target->path;
    if (o.schema_from && db) {  // the schema of another database than the one checked against
      other = open_database(
          backend, database_choice{*o.schema_from, std::filesystem::path(*o.schema_from).stem().string()},
          "--schema-from");
      from = other.get();
      from_path = *o.schema_from;
    }
    const query_outcome described = from->describe_schema(limits);
    if (described.ok()) {
      request.schema = described.message;
      schema_source = from_path;
    } else if (o.schema_from) {
      throw usage_error("--schema-from " + *o.schema_from + ": the backend '" + backend.name +
                        "' cannot describe its schema: " + described.message);
    } else {
      spdlog::warn("the backend '{}' cannot describe the schema of {}: {}; the judges get none", backend.name,
                   from_path, described.message);
    }
  }

  // The exact text each judge sends, before it is sent (so that it shows even when the call fails).
  std::vector<std::optional<std::string>> prompts(judges.size());
  if (o.show_prompt) {
    for (std::size_t i = 0; i < judges.size(); ++i) {
      prompts[i] = judges[i].instance->prompt(request);
      if (o.json) continue;
      if (prompts[i]) {
        std::printf("prompt of %s (%s):\n-----\n%s\n-----\n\n", judges[i].name.c_str(),
                    judges[i].spec.name.c_str(), prompts[i]->c_str());
      } else {
        std::printf("prompt of %s (%s): none, this judge sends no prompt\n\n", judges[i].name.c_str(),
                    judges[i].spec.name.c_str());
      }
    }
    std::fflush(stdout);
  }
  std::vector<record> verdicts;
  for (const configured_judge& j : judges) verdicts.push_back(ask_judge(ex, j, request));

  if (o.json) {
    nlohmann::ordered_json out;
    out["question"] = request.question;
    out["sql"] = request.sql;
    out["hints"] =
        request.hints.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(request.hints);
    out["dialect"] = request.dialect;
    out["database"] = target ? nlohmann::ordered_json(target->path) : nlohmann::ordered_json(nullptr);
    out["backend"] = backend.name;
    out["schema_source"] = schema_source;
    out["judges"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < judges.size(); ++i) {
      const record& r = verdicts[i];
      const judge_fields& f = *r.judgement;
      nlohmann::ordered_json extra = nlohmann::ordered_json::object();
      for (const auto& field : r.scores.extra) {  // not a structured binding: clang 14 cannot capture one
        std::visit([&](const auto& x) { extra[field.first] = x; }, field.second);
      }
      out["judges"].push_back(
          {{"judge", judges[i].name},
           {"plugin", judges[i].spec.name},
           {"status", example_status_name(r.status)},
           {"label", f.label ? nlohmann::ordered_json(*f.label) : nlohmann::ordered_json(nullptr)},
           {"confidence",
            f.confidence ? nlohmann::ordered_json(*f.confidence) : nlohmann::ordered_json(nullptr)},
           {"votes", f.votes},
           {"rationales", f.rationales},
           {"prompt_tokens", f.prompt_tokens},
           {"completion_tokens", f.completion_tokens},
           {"judge_ms", f.judge_ms.value_or(0.0)},
           {"error", r.error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.error)},
           {"extra", extra}});
      if (o.show_prompt)
        out["judges"].back()["prompt"] =
            prompts[i] ? nlohmann::ordered_json(*prompts[i]) : nlohmann::ordered_json(nullptr);
    }
    std::cout << dump_json(out, 2) << "\n";
    return 0;
  }

  std::printf("dialect: %s   database: %s   schema: %s (%zu bytes)\n", request.dialect.c_str(),
              target ? target->path.c_str() : "none", schema_source.c_str(), request.schema.size());
  text_table table;
  table.set_header({"judge", "label", "confidence", "votes", "tokens", "status", "rationale"});
  table.align_right({1, 2, 4});
  std::string errors;
  for (std::size_t i = 0; i < judges.size(); ++i) {
    const record& r = verdicts[i];
    const judge_fields& f = *r.judgement;
    std::string votes;
    for (const int v : f.votes) votes += std::to_string(v);
    std::string rationale;
    if (r.status != example_status::ok) {
      rationale = shortened(r.error, rationale_width);
      errors += judges[i].name + ": " + r.error + "\n";
    } else if (!f.rationales.empty()) {
      const std::string more =
          f.rationales.size() > 1 ? " (+" + std::to_string(f.rationales.size() - 1) + " more)" : "";
      rationale = shortened(f.rationales.front(), rationale_width - more.size()) + more;
    }
    table.add_row({judges[i].name, f.label ? std::to_string(*f.label) : "-",
                   f.confidence ? number_text(*f.confidence) : "-", votes.empty() ? "-" : votes,
                   std::to_string(f.prompt_tokens) + "+" + std::to_string(f.completion_tokens),
                   std::string(example_status_name(r.status)), rationale});
  }
  std::cout << table.render();
  if (!errors.empty()) std::cout << "\n" << errors;
  return 0;
}

}  // namespace

void register_judge_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<judge_options>();
  CLI::App* cmd = app.add_subcommand(
      "judge", "Ask judges whether one SQL query answers one question (see docs/judges.md)");
  cmd->add_option("--question", options->question, "the question the SQL should answer")->required();
  cmd->add_option("--sql", options->sql, "the SQL to judge")->required();
  cmd->add_option("--judges", options->judges,
                  "comma-separated judges: [judges.NAME] of sqlmorph.toml or judge components (default: the "
                  "[judges] of sqlmorph.toml, else sql_correctness)")
      ->delimiter(',');
  cmd->add_option("--db", options->db, "the database the SQL is about (a file for SQLite)");
  cmd->add_option("--db-id", options->db_id,
                  "the database by name: DB_ROOT/ID/ID.sqlite, or {db_id} of the backend's target");
  cmd->add_option("--db-root", options->db_root, "the folder of --db-id's database");
  cmd->add_option("--backend", options->backend,
                  "backend that opens the database (default: [run] backend, sqlite)");
  cmd->add_option("--schema", options->schema,
                  "a file with the schema as DDL text (default: read from the database)");
  cmd->add_option(
      "--schema-from", options->schema_from,
      "read the schema from this database (without --db, also the database the SQL is checked against)");
  cmd->add_option("--dialect", options->dialect,
                  "the SQL dialect the judges are told (default: the backend's)");
  cmd->add_option("--hints", options->hints, "domain hints (BIRD's evidence)");
  checked_by(
      cmd->add_option(
          "--timeout", options->timeout,
          "seconds: the `timeout` option of every judge that has one, and the limit on reading the schema"),
      [](double seconds, const std::string& name) {
        // 0, no limit for a query, would leave a judge's request none either.
        if (!(seconds > 0))
          throw usage_error(name + " must be a number of seconds above 0 (at most " +
                            fmt::format("{}", max_timeout_seconds) + "), not " + fmt::format("{}", seconds));
        checked_timeout(seconds, name);
      });
  cmd->add_flag("--json", options->json, "print one JSON object instead of a table");
  add_preflight_option(*cmd, options->no_preflight);
  cmd->add_flag("--show-prompt", options->show_prompt,
                "print the exact prompt each judge sends (with --json: a \"prompt\" field per judge)");
  cmd->callback([&g, &exit_code, options] { exit_code = run_judge(g, *options); });
}

}  // namespace sqlmorph::core
