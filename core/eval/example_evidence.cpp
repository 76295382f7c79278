#include "eval/example_evidence.hpp"

#include <cmath>

#include "output/json_writer.hpp"

namespace sqlmorph::core {
namespace {

constexpr char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const auto n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                   static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 |
                   static_cast<unsigned char>(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += base64_digits[(n >> (6 * k)) & 63];
  }
  if (i < bytes.size()) {
    std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out += base64_digits[(n >> 18) & 63];
    out += base64_digits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? base64_digits[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

void side(std::string& out, const query_evidence* q, std::size_t keep_rows, std::size_t& budget) {
  if (q == nullptr || (q->outcome == nullptr && q->error.empty())) {
    out += "null";
    return;
  }
  json_writer w(out);
  w.begin_object();
  const query_outcome* o = q->outcome;
  w.key("status");
  w.string(o == nullptr ? "not_run" : query_status_name(o->status));
  w.key("error");
  const std::string& error = o == nullptr ? q->error : o->message;
  if (error.empty())
    w.null();
  else
    w.string(error);
  if (o == nullptr || o->status != query_status::ok) {
    w.end_object();
    return;
  }
  const result& rows = o->rows;
  w.key("columns");
  w.begin_array();
  for (const std::string& name : rows.column_names()) w.string(name);
  w.end_array();
  w.key("types");
  w.begin_array();
  for (const std::string& type : rows.column_types()) w.string(type);
  w.end_array();
  w.key("row_count");
  w.integer(static_cast<std::int64_t>(rows.row_count()));
  w.key("truncated");
  w.boolean(rows.truncated());
  w.key("rows");
  // Rows as arrays, within the example's byte budget.
  std::string kept = "[";
  std::size_t count = 0;
  for (std::size_t r = 0; r < rows.row_count() && count < keep_rows; ++r) {
    std::string row = count ? ",[" : "[";
    const auto cells = rows.row(r);
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) row += ',';
      append_value_json(row, cells[c]);
    }
    row += ']';
    if (row.size() > budget) break;
    budget -= row.size();
    kept += row;
    ++count;
  }
  kept += ']';
  w.raw(kept);
  w.key("rows_kept");
  w.integer(static_cast<std::int64_t>(count));
  w.end_object();
}

}  // namespace

void append_value_json(std::string& out, const value& v) {
  json_writer w(out);
  switch (v.kind()) {
    case value_kind::null:
      w.null();
      break;
    case value_kind::integer:
      w.integer(v.as_integer());
      break;
    case value_kind::real: {
      const double d = v.as_real();
      if (std::isnan(d))
        w.string("NaN");
      else if (std::isinf(d))
        w.string(d > 0 ? "Infinity" : "-Infinity");
      else
        w.real(d);
      break;
    }
    case value_kind::text:
      w.string(v.bytes());
      break;
    case value_kind::blob:
      w.begin_object();
      w.key("$blob");
      w.string(base64(v.bytes()));
      w.end_object();
      break;
  }
}

std::string evidence_body(const example& ex, const std::string& evaluated_by, const query_evidence* gold,
                          const query_evidence* pred, const evidence_options& options) {
  std::string out;
  json_writer w(out);
  const auto text_or_null = [&](const std::string& s) {
    if (s.empty())
      w.null();
    else
      w.string(s);
  };
  const std::string& gold_sql = gold != nullptr ? gold->sql : ex.gold;
  const std::string& pred_sql = pred != nullptr ? pred->sql : ex.pred;
  w.begin_object();
  w.key("db_id");
  text_or_null(ex.db_id);
  w.key("db");  // what the backend opened (a file for SQLite): explain executes again from it
  text_or_null(ex.db);
  w.key("question");
  text_or_null(ex.question);
  w.key("evidence");
  text_or_null(ex.evidence);
  w.key("difficulty");
  text_or_null(ex.difficulty);
  w.key("evaluated_by");
  text_or_null(evaluated_by);
  w.key("gold");
  w.string(gold_sql);
  if (gold_sql != ex.gold) {
    w.key("gold_as_given");
    w.string(ex.gold);
  }
  w.key("pred");
  if (ex.pred_missing)
    w.null();
  else
    w.string(pred_sql);
  if (!ex.pred_missing && pred_sql != ex.pred) {
    w.key("pred_as_given");
    w.string(ex.pred);
  }
  // The features of the queries as given (the benchmark's, before any technique's rewrites).
  w.key("features");
  w.begin_object();
  w.key("gold");
  w.raw(features_json(features_of(ex.gold)).dump());
  w.key("pred");
  if (ex.pred_missing)
    w.null();
  else
    w.raw(features_json(features_of(ex.pred)).dump());
  w.end_object();
  std::size_t budget = options.max_bytes;
  std::string side_text;
  w.key("gold_result");
  side(side_text, gold, options.keep_rows, budget);
  w.raw(side_text);
  side_text.clear();
  w.key("pred_result");
  side(side_text, pred, options.keep_rows, budget);
  w.raw(side_text);
  w.end_object();
  // Without the opening brace: evidence_line puts id and system first.
  return out.substr(1);
}

std::string evidence_line(const example& ex, std::string_view body) {
  std::string out;
  {
    json_writer w(out);
    w.begin_object();
    w.key("id");
    if (ex.id_is_number)
      w.raw(ex.id);  // digits, as the cases file gave them
    else
      w.string(ex.id);
    w.key("system");
    if (ex.system.empty())
      w.null();
    else
      w.string(ex.system);
  }
  out += ',';
  out += body;
  return out;
}

}  // namespace sqlmorph::core
