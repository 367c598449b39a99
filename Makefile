# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HASH := $(shell $(PYTHON) -c "import hashlib;print(hashlib.sha256(open('pyproject.toml','rb').read()).hexdigest()[:12])")
# One stamp per install: `make run` installs the runtime only, `make test` adds the test extra, `make lint` the dev
# extra (test tools plus ruff and mypy). A changed pyproject.toml changes the hash, so each reinstalls once.
RUNTIME := $(VENV)/.installed-runtime-$(HASH)
TESTING := $(VENV)/.installed-test-$(HASH)
DEV := $(VENV)/.installed-dev-$(HASH)

.PHONY: run run-cluster test browser lint ruff mypy openapi migrate bench docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUNTIME): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e .
	rm -f $(VENV)/.installed-runtime-*
	touch $@

$(TESTING): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-test-*
	touch $@

$(DEV): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-dev-*
	touch $@

migrate: $(RUNTIME)
	$(VENV)/bin/alembic upgrade head

run: migrate
	$(PY) -m app

run-cluster: migrate
	$(PY) -m tools.cluster --processes $${PROCESSES:-2}

# Parallel workers (pytest-xdist): each has its own SQLite file or PostgreSQL database (tests/conftest.py); a file's
# tests stay on one worker. `make test TEST_WORKERS=0` runs in one process.
TEST_WORKERS ?= 2
test: $(TESTING) browser
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist loadfile

# Browser tests drive Debian's chromium (never a downloaded browser); CJK fonts make the screenshots readable.
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk; \
	  else echo "browser tests need Debian's chromium: sudo apt-get install chromium fonts-noto-cjk"; exit 1; fi; }

lint: ruff mypy

ruff: $(DEV)
	$(VENV)/bin/ruff check app tests migrations tools

# app/games and app/protocol strictly (pyproject), the rest of app at the default level; the rules' and the
# protocol's tests too, so the undercover game is checked against the `Game` protocol with its real types.
mypy: $(DEV)
	$(VENV)/bin/mypy app tests/games tests/protocol tests/contract

openapi: $(RUNTIME)
	$(PY) -m app.openapi
	$(PY) sdk/python/generate.py

# The docs site (MkDocs, Material theme; the `docs` extra): the tables the code knows and the skill guides' shared
# fragments are written first (python -m tools.docs), then the site is built strictly into site/.
docs: $(RUNTIME)
	$(PY) -m pip install --quiet -e '.[docs]'
	$(PY) -m tools.docs
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

clean:
	rm -rf $(VENV) site wodi.db wodi.db-wal wodi.db-shm
