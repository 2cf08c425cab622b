# Everything a fresh machine needs, from a clone: `make perft` runs the main job,
# `make test` runs every test. Both create the virtualenv and build the engine first.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(BIN)):$(PATH)

GAME  ?= kuba
DEPTH ?= 6

.PHONY: dev test test-rust test-python browser perft bench lint fmt clean

$(BIN)/maturin:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "maturin>=1.7,<2"

## Build the engine (optimised) and install glacier with its dev tools into .venv.
dev: $(BIN)/maturin
	$(BIN)/maturin develop --release --extras dev

## The main job: perft of GAME to DEPTH (e.g. make perft GAME=kuba DEPTH=7).
perft: dev
	$(BIN)/glacier perft $(GAME) $(DEPTH)

## Every test: lints, the Rust core's tests, then pytest (contract, fixtures, differential, benches once).
test: dev lint test-rust test-python

test-rust:
	cargo test --release -p glacier-core

test-python: dev browser
	$(BIN)/pytest -n auto

## Headless Chromium and its driver (Debian packages) for the replay page's browser test;
## where they cannot be installed that test is skipped with a message.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver) || \
	  echo "could not install chromium: the browser test of the replay page will be skipped"

## Benchmarks with timings: pytest-benchmark, the Rust comparison with shakmaty, the summary table.
bench: dev
	$(BIN)/pytest benches --benchmark-enable -p no:xdist
	cargo bench -p glacier-core --bench vs_shakmaty
	$(BIN)/glacier bench

## Formatting and lints, Rust and Python; the stub checked against the built module.
lint: dev
	cargo fmt --all --check
	cargo clippy --workspace --release --all-targets -- -D warnings
	$(BIN)/ruff check python tests benches
	$(BIN)/ruff format --check python tests benches
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest glacier._native

fmt:
	cargo fmt --all
	$(BIN)/ruff format python tests benches
	$(BIN)/ruff check --fix python tests benches

clean:
	rm -rf $(VENV) target
