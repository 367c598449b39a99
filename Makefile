# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell $(PYTHON) -c "import hashlib;print(hashlib.sha256(open('pyproject.toml','rb').read()).hexdigest()[:12])")

.PHONY: run run-cluster test browser lint ruff mypy openapi migrate bench docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

migrate: $(STAMP)
	$(VENV)/bin/alembic upgrade head

run: migrate
	$(PY) -m app

run-cluster: migrate
	$(PY) -m app.cluster --processes $${PROCESSES:-2}

test: $(STAMP) browser
	$(VENV)/bin/pytest

# Browser tests drive Debian's chromium (never a downloaded browser); CJK fonts make the screenshots readable.
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-cjk; \
	  else echo "browser tests need Debian's chromium: sudo apt-get install chromium fonts-noto-cjk"; exit 1; fi; }

lint: ruff mypy

ruff: $(STAMP)
	$(VENV)/bin/ruff check app tests migrations tools

# app/games and app/protocol strictly (pyproject), the rest of app at the default level; the rules' and the
# protocol's tests too, so the undercover game is checked against the `Game` protocol with its real types.
mypy: $(STAMP)
	$(VENV)/bin/mypy app tests/games tests/protocol

openapi: $(STAMP)
	$(PY) -m app.openapi

# The docs site (MkDocs, Material theme; the `docs` extra): the tables the code knows and the skill guides' shared
# fragments are written first (python -m tools.docs), then the site is built strictly into site/.
docs: $(STAMP)
	$(PY) -m pip install --quiet -e '.[docs]'
	$(PY) -m tools.docs
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

clean:
	rm -rf $(VENV) site wodi.db wodi.db-wal wodi.db-shm
