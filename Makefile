# The targets the README, CI and people all run. One configuration.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test check bench venv services clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# The embedded default (no DATABASE_URL, no CELERY_BROKER_URL): SQLite file, eager Celery.
EMBEDDED := env -u DATABASE_URL -u CELERY_BROKER_URL -u DJANGO_SETTINGS_MODULE
SITE := http://127.0.0.1:8000

demo: $(STAMP)
	$(EMBEDDED) $(PY) manage.py migrate --noinput -v 0
	$(EMBEDDED) $(PY) manage.py ddz_demo --site $(SITE)
	@echo ""
	@echo "Open in a browser (Ctrl-C stops the server):"
	@echo "  $(SITE)/                                  events"
	@echo "  $(SITE)/events/demo-duplicate/            standings of the demo event"
	@echo "  $(SITE)/events/demo-duplicate/boards/1/   traveller of board 1"
	@echo "  $(SITE)/events/archive-of-real-games/     the imported real games"
	@echo "  $(SITE)/series/demo-series-2026/          a club's series standings; names lead to profiles"
	@echo "  $(SITE)/organizer/login/                  sign in with a demo login above"
	@echo "  $(SITE)/referee/events/demo-duplicate/    referee entry (demo-referee: table 1 of round 5)"
	@echo "  $(SITE)/organizer/events/demo-duplicate/  the organizer's dashboard (demo-organizer)"
	@echo "  $(SITE)/admin/                            administration (demo-organizer)"
	@echo ""
	$(EMBEDDED) $(PY) manage.py runserver 127.0.0.1:8000

services:
	scripts/services.sh

test: $(STAMP) services
	@scripts/browser.sh
	$(PY) -m pytest

check: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) scripts/layers_report.py --check
	$(VENV)/bin/mypy games tournaments

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) scripts/bench_engine.py
	$(PY) scripts/bench_seating.py
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } \
	    || echo "bench: wrk is missing (Debian: apt install wrk)"
	$(MAKE) services
	$(PY) scripts/bench_standings.py
	$(PY) scripts/bench_pipeline.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
