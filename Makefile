# Two commands on a fresh machine (see README.md):
#   make run        installs everything into .venv and starts the game server
#   make test       installs everything into .venv and runs lint, types and every
#                   test: what CI runs (.ci/run)
# And one while working:
#   make test-fast  the unit layers only (tests/unit, tests/test_layers.py and the
#                   doctests) in JOBS=2 processes, without lint: under a minute
#                   on two cores; leaves out the tests marked e2e (tests/e2e, and
#                   the few unit tests that run real servers, processes,
#                   benchmarks or long matches) and browser (tests/browser)
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run serve test test-fast lint browser services bench clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@# mypy reads the packages by their installed names through links (pyproject.toml)
	mkdir -p $(VENV)/typecheck/boardroom
	for name in server client shared; do \
		ln -sfn $(CURDIR)/$$name $(VENV)/typecheck/boardroom/$$name; done
	touch $(STAMP)
	@echo "Installed: the command is $(BIN)/boardroom. To type just 'boardroom' in this shell:"
	@echo '  export PATH="$(abspath $(BIN)):$$PATH"'

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
	$(BIN)/lint-imports --no-cache

# Debian's packages that the tests drive for real, installed once by apt-get as
# root (or through sudo); a fresh machine has no package lists yet, hence the update:
#   chromium      the browser tests (tests/browser/), never a browser that
#                 Playwright downloads
#   redis-server  the cluster tests' Redis (tests/services.py starts its own)
#   postgresql    the cluster's game store tests (tests/services.py runs initdb
#                 in a temporary folder and starts its own server)
#   caddy         the reverse proxy of docs/internet.md (tests/e2e/test_e2e_proxy.py
#                 runs its own, with its own certificate authority, in a temporary folder)
CHROMIUM := /usr/bin/chromium
REDIS := /usr/bin/redis-server
POSTGRES := /usr/share/postgresql-common/pg_wrapper
CADDY := /usr/bin/caddy
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then sudo=; \
	elif command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	else echo "$@ is missing: install Debian's $(1) package as root" >&2; exit 1; fi; \
	echo "Installing Debian's $(1) for the tests"; \
	$$sudo apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $(1) >/dev/null

$(CHROMIUM):
	@$(call APT_INSTALL,chromium)

$(REDIS):
	@$(call APT_INSTALL,redis-server)

$(POSTGRES):
	@$(call APT_INSTALL,postgresql)

$(CADDY):
	@$(call APT_INSTALL,caddy)

browser: $(CHROMIUM)

services: $(REDIS) $(POSTGRES) $(CADDY)

# Every test, in JOBS processes (pytest-xdist), a test file to each at a time:
# module-level caches are built once, and no test uses a fixed port or shared
# file, so files run side by side. Its time on two cores, and what keeps it
# under the 10-minute goal: docs/benchmarks.md, "The test suite". A test whose
# Redis, PostgreSQL or Caddy is missing fails, naming the package: `services`
# installs them first.
JOBS ?= 2
test: lint browser services
	$(BIN)/pytest -n $(JOBS) --dist loadfile

# The markers come from tests/conftest.py (by folder) and from the tests marked
# one by one; the two folders are not even collected, which saves a few seconds.
# The unit tests are CPU-bound: 30-40 s on two cores instead of 45-50 s in one.
test-fast: install services
	$(BIN)/pytest -m "not e2e and not browser" --ignore=tests/e2e --ignore=tests/browser \
		-n $(JOBS) --dist loadfile

bench: install
	$(BIN)/boardroom bench engine

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
