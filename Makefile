# Leidraad: `make run` to use it, `make test` to test it. See README.md.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# The full browser (make bench's browser section; the tests' fallback) and its headless shell
# (the browser tests: the same engine at about half the CPU, docs/DEVELOPING.md "Tests").
CHROMIUM := /usr/lib/chromium/chromium
HEADLESS_SHELL := /usr/lib/chromium/chromium-headless-shell
MO := locale/en/LC_MESSAGES/django.mo
HOST ?= 127.0.0.1
PORT ?= 8000
# Compiled bytecode (and pytest's rewritten test modules) is kept in .venv/pycache, outside the
# source tree, also where the environment says not to write any (PYTHONDONTWRITEBYTECODE):
# otherwise every Python process compiles the project again, about 4 s each, and a test run
# starts dozens (two workers; the servers and workers of the bench and crash tests).
export PYTHONPYCACHEPREFIX := $(CURDIR)/$(VENV)/pycache
unexport PYTHONDONTWRITEBYTECODE

.PHONY: wheel-test run test test-slow test-postgres lint audit format messages bench bench-postgres clean-data help chromium loadtest crashtest

help:
	@echo "make run            set up, load laws and trees, serve on http://$(HOST):$(PORT)"
	@echo "make test           set up and run every test but the slow ones (SQLite)"
	@echo "make test-slow      the slow tests: bench harness at tiny scale, crash test (SQLite)"
	@echo "make test-postgres  run every test against a throwaway PostgreSQL 15 server"
	@echo "make lint           ruff check, format check and mypy"
	@echo "make wheel-test     build the wheel, install it in a fresh venv, serve and fetch a page"
	@echo "make audit          check requirements.txt for known vulnerabilities (needs advisory data)"
	@echo "make loadtest       20 directors saving rulings against gunicorn, SQLite then PostgreSQL"
	@echo "make crashtest      SIGKILL the server during saves, restart, check nothing is half-written"
	@echo "make bench          benchmarks on SQLite (own temporary data); writes BENCHMARKS.md"
	@echo "make bench-postgres the same on a throwaway PostgreSQL 15 server"

$(VENV)/.runtime: requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PIP) install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

# The compiled catalogue is committed, so a machine without gettext still runs; it is rebuilt
# when the .po file changed and msgfmt is there.
$(MO): locale/en/LC_MESSAGES/django.po $(VENV)/.runtime
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages --verbosity 0; \
	else echo "msgfmt not found: using the committed $(MO)"; fi
	@touch $@

run: $(VENV)/.runtime $(MO)
	$(PY) manage.py bootstrap --migrate
	DEBUG=true $(PY) manage.py runserver $(HOST):$(PORT)

chromium:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(HEADLESS_SHELL) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian's chromium and chromium-headless-shell for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; \
	  fi; \
	fi
	@if [ ! -x $(HEADLESS_SHELL) ] && [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$CI" = true ]; then echo "ERROR: Chromium missing at $(HEADLESS_SHELL) and $(CHROMIUM); CI needs the browser tests." >&2; exit 1; fi; \
	  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
	  echo "!! Chromium not found at $(HEADLESS_SHELL) nor $(CHROMIUM):       !!"; \
	  echo "!! browser tests will be SKIPPED.                                           !!"; \
	  echo "!! Install with: sudo apt-get install chromium-headless-shell chromium      !!"; \
	  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"; \
	elif [ ! -x $(HEADLESS_SHELL) ]; then \
	  echo "chromium-headless-shell not found: the browser tests use $(CHROMIUM) (slower)"; \
	fi

# Two test processes (pytest-xdist), each with its own test database; TEST_WORKERS=0 runs in
# one process. worksteal: a worker that runs out takes queued tests from the other (with the
# default scheduling one worker sat idle for minutes behind the other's browser tests).
TEST_WORKERS ?= 2
# make test leaves out the tests marked slow (the bench harness at tiny scale, a SIGKILLed
# server): make test-slow runs them, .ci/run runs both, and make test-postgres everything.
test: $(VENV)/.dev $(MO) chromium
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal -m "not slow" $(PYTEST_ARGS)

test-slow: $(VENV)/.dev $(MO) chromium
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal -m slow $(PYTEST_ARGS)

test-postgres: $(VENV)/.dev $(MO) chromium
	scripts/with-postgres.sh $(VENV)/bin/pytest $(PYTEST_ARGS)

audit: $(VENV)/.dev
	$(PY) scripts/audit-deps.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

messages: $(VENV)/.dev
	$(PY) manage.py makemessages -l en --no-obsolete --add-location file -i ".venv/*" -i "staticfiles/*"

# The club-laptop install (docs/OPERATIONS.md: "On a club laptop"): wheel, fresh venv, leidraad serve.
wheel-test: $(VENV)/.runtime
	PYTHON=$(PY) scripts/wheel-smoke.sh

clean-data:
	rm -rf data/

# Benchmarks (bench/README.md): their own data in a temporary folder or database, about ten
# minutes on two cores. BENCH_SCALE=small or tiny for a quick try.
bench: $(VENV)/.dev $(MO) chromium
	$(PY) -m bench

bench-postgres: $(VENV)/.dev $(MO) chromium
	scripts/with-postgres.sh $(PY) -m bench

# Bounded load (about a minute per database, loopback only): see scripts/loadtest.py.
loadtest: $(VENV)/.dev
	env -u DATABASE_URL $(PY) scripts/loadtest.py
	scripts/with-postgres.sh $(PY) scripts/loadtest.py

# The long form of tests/security/test_crash_safety.py (which runs in make test).
crashtest: $(VENV)/.dev
	env -u DATABASE_URL $(PY) scripts/crashtest.py
