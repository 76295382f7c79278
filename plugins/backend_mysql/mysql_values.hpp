#pragma once
// MySQL/MariaDB's text protocol to sqlmorph values, by column type (the table is in README.md).

#include <string>
#include <string_view>

#include <mysql.h>

#include <sqlmorph/row_sink.hpp>

namespace sqlmorph::mysql {

/// The engine's name of a column's type ("INT", "BIGINT UNSIGNED", "DECIMAL", "VARCHAR", "BLOB", ...).
std::string type_name(const MYSQL_FIELD& field);

/// Appends one non-NULL cell given in the text protocol as the value kind its type maps to.
/// False when the cell goes over the sink's byte cap (the row is dropped: stop fetching).
bool append_cell(row_sink& rows, const MYSQL_FIELD& field, std::string_view text);

}  // namespace sqlmorph::mysql
