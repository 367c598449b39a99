# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell $(PYTHON) -c "import hashlib;print(hashlib.sha256(open('pyproject.toml','rb').read()).hexdigest()[:12])")

.PHONY: run run-cluster test browser lint ruff mypy openapi migrate bench clean

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
	$(VENV)/bin/ruff check app tests migrations

# app/games and app/protocol strictly (pyproject), the rest of app at the default level; the rules' and the
# protocol's tests too, so the undercover game is checked against the `Game` protocol with its real types.
mypy: $(STAMP)
	$(VENV)/bin/mypy app tests/games tests/protocol

openapi: $(STAMP)
	$(PY) -m app.openapi
	$(PY) sdk/python/generate.py

clean:
	rm -rf $(VENV) wodi.db wodi.db-wal wodi.db-shm
