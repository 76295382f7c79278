#include "datasets/csv.hpp"

#include "errors.hpp"

namespace sqlmorph::core {

std::vector<csv_row> parse_csv(std::string_view text, const std::string& name) {
  std::vector<csv_row> rows;
  csv_row row;
  std::string field;
  std::size_t line = 1;
  row.line = 1;
  bool quoted = false;
  bool field_started = false;
  std::size_t quote_line = 0;
  const auto end_field = [&] {
    row.fields.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  const auto end_row = [&] {
    end_field();
    if (!(row.fields.size() == 1 && row.fields[0].empty())) rows.push_back(std::move(row));
    row = csv_row{};
    row.line = line;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
          // After the closing quote the field must end: anything else is a quote that was not doubled.
          const char after = i + 1 < text.size() ? text[i + 1] : ',';
          if (after != ',' && after != '\n' && after != '\r') {
            throw usage_error(
                name + ":" + std::to_string(line) +
                ": broken quoting: text after the closing quote of a field that starts on line " +
                std::to_string(quote_line) + " (a quote inside a quoted field is written twice: \"\")");
          }
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && !field_started) {
      quoted = true;
      field_started = true;
      quote_line = line;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      end_row();
    } else {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw usage_error(name + ":" + std::to_string(quote_line) + ": quoted field is never closed");
  if (field_started || !row.fields.empty() || !field.empty()) end_row();
  return rows;
}

}  // namespace sqlmorph::core
