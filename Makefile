# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell $(PYTHON) -c "import hashlib;print(hashlib.sha256(open('pyproject.toml','rb').read()).hexdigest()[:12])")

.PHONY: run run-cluster test lint openapi migrate bench clean

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

test: $(STAMP)
	$(VENV)/bin/pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check app tests migrations

openapi: $(STAMP)
	$(PY) -m app.openapi

clean:
	rm -rf $(VENV) wodi.db wodi.db-wal wodi.db-shm
