# Everything a fresh machine needs, from a clone: `make perft` runs the main job,
# `make test` runs every test. Both create the virtualenv and build the engine first.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(BIN)):$(PATH)

GAME    ?= ice_age_chess
DEPTH   ?= 7
THREADS ?= 0

.PHONY: dev test test-rust test-python browser perft bench lint docs notebook fmt fuzz dist clean

$(BIN)/maturin:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "maturin>=1.7,<2"

## Build the engine (optimised) and install glacier with its dev tools into .venv.
dev: $(BIN)/maturin
	@# Left by older builds: the distribution from before the engine was glacier-games, and
	@# the stable-ABI module from before it was built per CPython version (another Python
	@# would import it).
	@$(BIN)/pip uninstall --quiet --yes glacier 2>/dev/null || true
	@rm -f python/glacier/_native.abi3.so
	$(BIN)/maturin develop --release --extras dev

## The main job: perft of GAME to DEPTH on THREADS threads (0 = every core); by default
## Ice Age Chess from the start to depth 7, 1152094123 leaves (e.g. make perft GAME=kuba DEPTH=8).
perft: dev
	$(BIN)/glacier perft $(GAME) $(DEPTH) --threads $(THREADS)

## Every test: lints, the documentation site, the Rust core's tests, a short fuzzing run, then
## pytest (contract, fixtures, differential, the wheel built and installed, benches once).
test: dev lint docs test-rust fuzz test-python

test-rust:
	cargo test -p glacier-core

test-python: dev browser
	$(BIN)/pytest -n auto --durations=30

## Headless Chromium and its driver (Debian packages) for the browser tests (the replay page,
## glacier serve); where they cannot be installed those tests are skipped with a message.
## Debian's packages are installed as root, or through sudo (as a CI runner's user is).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver) || \
	  echo "could not install chromium: the browser tests will be skipped"

## Benchmarks with timings: pytest-benchmark, the Rust comparison with shakmaty, the summary table.
bench: dev
	$(BIN)/pytest benches --benchmark-enable -p no:xdist
	cargo bench -p glacier-core --bench vs_shakmaty
	$(BIN)/glacier bench

## The fuzz targets of fuzz/ (every position, move and SAN reader of the core), FUZZ_SECONDS
## each, from a corpus seeded with real positions and moves. They are built as
## `cargo fuzz build -s none` builds them (libFuzzer's coverage instrumentation, on stable
## Rust; debug assertions on), without needing cargo-fuzz; `cargo fuzz run -s none <target>`
## in fuzz/ runs one for as long as you like. A failing input is kept in fuzz/artifacts/.
FUZZ_SECONDS ?= 10
FUZZ_TARGETS := position_text move_text san_text
FUZZ_TRIPLE   = $(shell rustc -vV | sed -n 's/^host: //p')
FUZZ_RUSTFLAGS := -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth \
  -Cllvm-args=-simplifycfg-branch-fold-threshold=0 --cfg fuzzing -Cdebug-assertions -Ccodegen-units=1
fuzz: dev
	@# libFuzzer itself is C++, compiled by the libfuzzer-sys crate.
	@command -v c++ >/dev/null || ($(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq g++)
	cargo fmt --check --manifest-path fuzz/Cargo.toml
	RUSTFLAGS="$(FUZZ_RUSTFLAGS)" cargo clippy --release --locked --manifest-path fuzz/Cargo.toml \
	  --target $(FUZZ_TRIPLE) --all-targets -- -D warnings
	RUSTFLAGS="$(FUZZ_RUSTFLAGS)" cargo build --release --locked --manifest-path fuzz/Cargo.toml \
	  --target $(FUZZ_TRIPLE) --bins
	$(BIN)/python fuzz/seeds.py fuzz/corpus
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/artifacts/$$target; \
	  echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  fuzz/target/$(FUZZ_TRIPLE)/release/$$target -max_total_time=$(FUZZ_SECONDS) \
	    -artifact_prefix=fuzz/artifacts/$$target/ fuzz/corpus/$$target > fuzz/target/$$target.log 2>&1 \
	    || { tail -n 60 fuzz/target/$$target.log; exit 1; }; \
	  tail -n 1 fuzz/target/$$target.log; \
	done

## The sdist, then from it (as pip would build it) the wheel for the CPython version of .venv,
## into DIST (dist/). On Linux the wheel is manylinux2014 (glibc 2.17 or later, so it installs
## on every maintained distribution): Zig links it against glibc 2.17's symbols, not this
## machine's, and auditwheel checks the tag it claims. Zig and auditwheel come from PyPI
## (ziglang, auditwheel), as every other tool does: nothing downloads a toolchain. The
## wheel's library keeps its symbols, not its debug info.
DIST ?= dist
DIST_TOOLS := "ziglang>=0.13" "auditwheel>=6"
ifeq ($(shell uname -s),Linux)
WHEEL_FLAGS := --zig --compatibility manylinux2014
endif
$(VENV)/.dist-tools: $(BIN)/maturin
	$(BIN)/pip install --quiet $(DIST_TOOLS)
	@touch $@
dist: $(BIN)/maturin $(VENV)/.dist-tools
	@$(BIN)/python -m ziglang version >/dev/null 2>&1 || \
	  { echo "make dist needs Zig, which comes from PyPI: $(BIN)/pip install ziglang"; exit 1; }
	rm -rf $(DIST)/build $(DIST)/glacier_games-*
	$(BIN)/maturin sdist -o $(DIST)
	mkdir -p $(DIST)/build && tar -xzf $(DIST)/glacier_games-*.tar.gz -C $(DIST)/build
	cd $(DIST)/build/glacier_games-* && CARGO_TARGET_DIR=$${CARGO_TARGET_DIR:-$(abspath target)} \
	  CARGO_PROFILE_RELEASE_STRIP=debuginfo \
	  $(abspath $(BIN))/maturin build --release $(WHEEL_FLAGS) -i $(abspath $(BIN))/python -o $(abspath $(DIST))
	rm -rf $(DIST)/build
ifdef WHEEL_FLAGS
	$(BIN)/auditwheel show $(DIST)/glacier_games-*.whl | tee /dev/stderr | tr '\n' ' ' | \
	  grep -q 'consistent with the following platform tag: "manylinux_2_17_' || \
	  { echo "auditwheel does not take the wheel for manylinux_2_17 (above)"; exit 1; }
endif

## Formatting and lints, Rust and Python; the stub checked against the built module; the
## core's portable build (no AVX2 pass, as on every architecture but x86-64); the GitHub
## workflows (actionlint).
lint: dev
	cargo fmt --all --check
	cargo clippy --workspace --release --all-targets -- -D warnings
	cargo clippy -p glacier-core --no-default-features --release --all-targets -- -D warnings
	$(BIN)/actionlint .github/workflows/*.yml
	$(BIN)/ruff check python tests benches fuzz
	$(BIN)/ruff format --check python tests benches fuzz
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest glacier._native

## The documentation site (MkDocs, mkdocs.yml) into site/: a broken link, a missing page or
## API reference, or a page left out of the navigation fails the build.
docs: dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

## Runs docs/quickstart.ipynb and stores its outputs (tests/test_notebook.py checks they are
## what it prints).
notebook: dev
	$(BIN)/python tests/test_notebook.py

fmt:
	cargo fmt --all
	cargo fmt --manifest-path fuzz/Cargo.toml
	$(BIN)/ruff format python tests benches fuzz
	$(BIN)/ruff check --fix python tests benches fuzz

clean:
	rm -rf $(VENV) target fuzz/target dist site
