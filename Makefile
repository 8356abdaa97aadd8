# Two commands on a fresh machine (see README.md):
#   make run    installs everything into .venv and runs the main job
#   make test   installs everything into .venv and runs lint, types and tests
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

install: $(STAMP)

# Until the server lands, the main job is the engine: solve 4x4 tic-tac-toe.
ARGS ?= solve tictactoe4
run: install
	$(BIN)/boardroom $(ARGS)

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
