# The two set-up commands of the README (both run `make deps`: Debian's packages, the report tests'
# npm packages and DuckDB's library, each fetched only when missing):
#   make run    install what is missing, build what the demo needs, evaluate the bundled demo
#   make test   install what is missing, build everything, run the whole test suite
# Other targets: make build, make bench, make test-asan (AddressSanitizer + UBSan build), make
# test-sanitized (unit and Lua tests in the clang sanitizer build of make fuzz), make fuzz
# (the libFuzzer targets of tests/fuzz, FUZZ_SECONDS each, in build-fuzz), make format,
# make check-format, make clean.

PRESET ?= default
BUILD_DIR := $(if $(filter asan,$(PRESET)),build-asan,build)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# Debian 12 packages the build needs.
# libcurl4-openssl-dev builds the OpenAI-compatible embedder and judge (nlohmann-json3-dev parses their JSON).
# libssl-dev (OpenSSL's libcrypto) computes the SHA-256 of the judge's cache keys.
# libpq-dev and unixodbc-dev build the PostgreSQL and ODBC backends; postgresql, odbc-postgresql and
# libsqliteodbc are what the backend tests run against (a throwaway cluster, the two ODBC drivers).
# libmariadb-dev (MariaDB Connector/C) builds the MySQL/MariaDB backend; mariadb-server is the
# throwaway server its tests start (tests/servers/mariadb.sh).
# sqlite3 (the shell) builds the empty BIRD databases of examples/judges/bird_judge.sh.
# clang-format checks the formatting in CI (make check-format).
# pybind11-dev and python3-dev build the Python package (python/); python3-pytest runs its tests;
# python3-pandas lets them run Result.to_pandas() for real (the module never needs it).
# slurmctld, slurmd and slurm-client run the one-node Slurm cluster of the scale-out test;
# python3-yaml reads the Kubernetes manifests of examples/kubernetes in their test.
# libxxhash-dev (header-only use) hashes database files for the gold cache (XXH3-128).
# libmimalloc-dev is the sqlmorph command's allocator (CMake option SQLMORPH_MIMALLOC).
# clang and libclang-rt-14-dev (libFuzzer, ASan and UBSan runtimes) build the fuzz targets (make fuzz).
# chromium renders the HTML report in its tests (headless, driven by puppeteer-core from the npm
# registry, pinned in tests/report/package-lock.json and installed by `make deps`).
DEB_PACKAGES := build-essential cmake pkg-config libsqlite3-dev liblua5.4-dev libboost-dev libtomlplusplus-dev \
                libspdlog-dev libfmt-dev doctest-dev nlohmann-json3-dev libcli11-dev libcurl4-openssl-dev libssl-dev \
                libpq-dev unixodbc-dev postgresql libmariadb-dev mariadb-server odbc-postgresql libsqliteodbc sqlite3 clang-format \
                clang libclang-rt-14-dev pybind11-dev python3-dev python3-pytest python3-pandas python3-yaml \
                slurmctld slurmd slurm-client libxxhash-dev libmimalloc-dev chromium

# What `make run` needs: the CLI (which brings the plugins it loads by default) and the demo
# database. Tests, benchmarks and the server backends are left to `make build` / `make test`, in
# the same build folder.
DEMO_TARGETS := sqlmorph demo_database

# DuckDB's C API library for the DuckDB backend (package, version, checksums): fetched by `make deps`
# into $(BUILD_DIR)/deps/duckdb/ (CMake copies it beside the plugins). x86-64 Linux only: elsewhere
# the step says so and the DuckDB tests fail with the plugin's message on how to get the library.
include plugins/backend_duckdb/duckdb-version.mk
DUCKDB_DIR := $(BUILD_DIR)/deps/duckdb

# Seconds each fuzz target runs in `make fuzz`.
FUZZ_SECONDS ?= 60

.PHONY: deps configure build build-demo run test test-asan test-sanitized fuzz bench report-screenshots format check-format clean

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "These Debian packages are missing. Install them (as root) with:"; \
	    echo "  apt-get install -y --no-install-recommends$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = "0" ]; then apt-get install -y -qq --no-install-recommends nodejs npm; \
	  else echo "node and npm are missing: apt-get install -y nodejs npm"; exit 1; fi; }
	@if [ ! -f tests/report/node_modules/.package-lock.json ] || \
	    [ tests/report/package-lock.json -nt tests/report/node_modules/.package-lock.json ]; then \
	  echo "installing the report tests' npm packages (tests/report/package-lock.json)"; \
	  npm ci --prefix tests/report --no-audit --no-fund --loglevel=error; \
	fi
	@if [ "$$(uname -m)" != "x86_64" ]; then \
	  echo "skipping DuckDB's library: $(DUCKDB_NPM_PACKAGE) is for x86-64 Linux (see plugins/backend_duckdb/README.md)"; \
	elif [ "$$(cat $(DUCKDB_DIR)/VERSION 2>/dev/null)" != "$(DUCKDB_NPM_VERSION)" ] || [ ! -f $(DUCKDB_DIR)/libduckdb.so ]; then \
	  echo "fetching DuckDB's library: $(DUCKDB_NPM_PACKAGE)@$(DUCKDB_NPM_VERSION) (npm pack)"; \
	  rm -rf $(DUCKDB_DIR) && mkdir -p $(DUCKDB_DIR)/pack && \
	  tarball=$$(cd $(DUCKDB_DIR)/pack && npm pack --silent --no-fund "$(DUCKDB_NPM_PACKAGE)@$(DUCKDB_NPM_VERSION)") && \
	  echo "$(DUCKDB_NPM_SHA512)  $(DUCKDB_DIR)/pack/$$tarball" | sha512sum --check --quiet && \
	  tar -xzf $(DUCKDB_DIR)/pack/$$tarball -C $(DUCKDB_DIR)/pack package/libduckdb.so package/LICENSE && \
	  mv $(DUCKDB_DIR)/pack/package/libduckdb.so $(DUCKDB_DIR)/pack/package/LICENSE $(DUCKDB_DIR)/ && \
	  rm -rf $(DUCKDB_DIR)/pack && echo "$(DUCKDB_NPM_VERSION)" > $(DUCKDB_DIR)/VERSION || \
	  { echo "could not fetch or verify $(DUCKDB_NPM_PACKAGE)@$(DUCKDB_NPM_VERSION)"; rm -rf $(DUCKDB_DIR); exit 1; }; \
	fi

# Extra cmake arguments for the configure step (CI drops debug info with them: see .ci/run).
CMAKE_ARGS ?=

configure: deps
	cmake --preset $(PRESET) $(CMAKE_ARGS)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

build-demo: configure
	cmake --build --preset $(PRESET) -j $(JOBS) --target $(DEMO_TARGETS)

run: build-demo
	./$(BUILD_DIR)/sqlmorph --config sqlmorph.toml eval \
	  --cases examples/demo/cases.jsonl --db-root $(BUILD_DIR)/examples/demo \
	  --penalize-extra-pred-cols both --timeout 2 --max-rows 10000 --judges sql_correctness \
	  --overwrite --out $(BUILD_DIR)/demo-results
	./$(BUILD_DIR)/sqlmorph report $(BUILD_DIR)/demo-results -o $(BUILD_DIR)/demo-report.html
	@echo "open $(CURDIR)/$(BUILD_DIR)/demo-report.html in a browser"

test: build
	ctest --preset $(PRESET) -j $(JOBS)

test-asan:
	$(MAKE) test PRESET=asan

# A separate clang build (build-fuzz), so the gcc build is unaffected. Seeds are built at fuzz time
# from the project's inputs and ../shared/benchmarks; a crash fails the target and keeps its input.
fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target fuzz_targets
	tests/fuzz/run_fuzzers.sh $(FUZZ_SECONDS)

# The unit and Lua tests in that clang build, where every library and plugin has AddressSanitizer
# and UBSan (optimized, as the fuzzers run): memory and undefined-behaviour errors in the core, the
# SDK, the plugins and the Lua bindings fail the run. `make test-asan` runs the whole suite in a gcc
# Debug build with the same sanitizers (longer: not part of CI).
test-sanitized: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS) --target unit_tests lua_tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir build-fuzz -j $(JOBS) -R '^(unit|lua):' --output-on-failure --no-tests=error

bench: build
	./$(BUILD_DIR)/bench/partial_matching_bench
	./$(BUILD_DIR)/bench/permutation_bench
	./$(BUILD_DIR)/bench/spider_dev_bench
	./$(BUILD_DIR)/bench/many_systems_bench
	./$(BUILD_DIR)/bench/parallel_bench
	python3 bench/python_overhead.py $(BUILD_DIR)
	./$(BUILD_DIR)/bench/memory_bench
	./$(BUILD_DIR)/bench/evidence_report_bench

# Screenshots of the report's views for the docs (docs/images/report-*.png): a 4-system Spider dev
# run when ../shared is there, else the demo.
report-screenshots: build
	tests/report/screenshots.sh ./$(BUILD_DIR)/sqlmorph $(CURDIR) $(CURDIR)/$(BUILD_DIR) docs/images

format:
	git ls-files '*.cpp' '*.hpp' '*.h' | xargs clang-format -i

check-format: deps
	tools/check_format.sh

clean:
	rm -rf build build-asan build-fuzz
