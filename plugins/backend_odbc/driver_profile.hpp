#pragma once
// What this backend knows about particular ODBC drivers: which driver a connection string names,
// and for the drivers it knows (the SQLite ODBC driver, psqlODBC) the attributes it forces, the
// statements that make the session read-only, and the functions it refuses. Any other driver gets
// the generic treatment (read-only access mode, rollback, statement gate). The table is README.md's.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "connection_string.hpp"
#include "odbc_handles.hpp"

namespace sqlmorph::odbc {

enum class driver_family { generic, sqlite, postgres };

/// An attribute the backend writes into every connection string for a driver, whatever the target
/// says, because safety or the caps depend on it.
struct forced_attribute {
  std::string_view key;
  std::string_view value;
};

struct driver_profile {
  driver_family family = driver_family::generic;
  /// For messages: "the SQLite ODBC driver".
  std::string_view label;
  std::span<const forced_attribute> forced_attributes;
  /// Attributes written into the connection string when it does not set them.
  std::span<const forced_attribute> default_attributes;
  /// Run once after connecting, while autocommit is still on (so they last for the session).
  std::span<const std::string_view> session_statements;
  /// Functions that reach outside the database; predicted SQL naming one is refused.
  std::span<const std::string_view> denied_functions;
  /// Queries run with autocommit off, in a transaction that is rolled back after each.
  bool rolled_back_transactions = true;
};

const driver_profile& profile_of(driver_family family) noexcept;

/// The family of a driver from its library path, its odbcinst.ini name or the file name that
/// SQLGetInfo(SQL_DRIVER_NAME) reports.
driver_family family_of_driver(std::string_view library_or_name) noexcept;

/// The driver a connection string names, as a library path when the driver manager's lists
/// (odbcinst.ini, odbc.ini) say where it is, else as the name written. `DSN=` is looked up among the
/// data sources; a string with neither `Driver=` nor `DSN=` uses the `DEFAULT` data source.
/// Not thread-safe with itself (the driver manager's enumeration state is per environment).
std::string driver_named_by(SQLHENV env, const connection_string& target);

/// True when a failed connection's diagnostics mean that the database does not exist.
bool means_missing_database(driver_family family, const std::vector<diagnostic>& records);

/// Why a failed statement was refused, when its diagnostics show one of the backend's safety layers
/// (" (the evaluation runs every query in a read-only transaction)"), or "".
std::string refusal_reason(driver_family family, const std::vector<diagnostic>& records);

/// The first function of `profile.denied_functions` that `statement` names anywhere (as a whole
/// word, case-insensitively, quoted or not, even in a comment or string), or "".
std::string denied_function_in(const driver_profile& profile, std::string_view statement);

/// The statement as the driver must receive it to return its rows: the SQLite ODBC driver runs a
/// statement that starts with VALUES as one that returns none, so it gets `SELECT * FROM (VALUES ...)`
/// (same columns, column1, column2, ...). Other statements are sent as they are.
std::string statement_for(const driver_profile& profile, std::string_view statement);

}  // namespace sqlmorph::odbc
