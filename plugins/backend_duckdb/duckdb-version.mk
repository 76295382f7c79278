# The DuckDB library the backend_duckdb plugin is tested with: libduckdb.so (DuckDB's C API, here
# DuckDB v1.5.6) from the npm registry's package below (DuckDB's Node bindings for linux-x64 ship
# it). `make deps` fetches it with `npm pack`, checks the tarball's SHA-512 (the hex form of npm's
# dist.integrity, which is kept here as npm shows it, with npm's dist.shasum) and extracts the
# library into build/deps/duckdb/; CMake copies it to <plugin folder>/duckdb/. CMake and the
# plugin's error messages read the package and version from here. To move to another version:
# `npm view @duckdb/node-bindings-linux-x64@VERSION dist`, then `make deps` and the DuckDB tests.
DUCKDB_NPM_PACKAGE := @duckdb/node-bindings-linux-x64
DUCKDB_NPM_VERSION := 1.5.6-r.1
DUCKDB_NPM_INTEGRITY := sha512-IXcrZJE6kEqM0Z4wwdVnGBHX/frOS33VPNAwDXQ/Q+Fs84b058Qe94chrCCIcNJlG8Y3UHIUU4eBeCQxW5mN1Q==
DUCKDB_NPM_SHA512 := 21772b64913a904a8cd19e30c1d5671811d7fdface4b7dd53cd0300d743f43e16cf386f4e7c41ef78721ac208870d2651bc6375072145387817824315b998dd5
DUCKDB_NPM_SHA1 := 92c5328e91079769bfbe79d3c4a7785a6cbb1039
