# Two commands on a fresh machine (see README.md):
#   make run    installs everything into .venv and starts the game server
#   make test   installs everything into .venv and runs lint, types and tests
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run serve test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

# The main job: the game server on the embedded SQLite default (boardroom.db).
# Extra flags through ARGS, e.g. make run ARGS="--port 9000 --grace-seconds 120".
ARGS ?=
run: install
	$(BIN)/boardroom serve $(ARGS)

serve: run

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: install
	$(BIN)/boardroom bench engine

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
