# The targets the README, CI and people all run. One configuration.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo demo-server test check bench venv services clean messages

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

DEMO_ADDRESS ?= 127.0.0.1:8000
# The host names the demo answers to: add the machine's address on the network to open the
# seat devices from phones (README "The two commands").
DEMO_HOSTS ?= 127.0.0.1,localhost
SITE := http://$(DEMO_ADDRESS)
# The embedded default (no DATABASE_URL, no CELERY_BROKER_URL): SQLite file, eager Celery; the
# links of its mails (printed on the console) go to the demo's own address.
EMBEDDED := env -u DATABASE_URL -u CELERY_BROKER_URL -u DJANGO_SETTINGS_MODULE DDZ_SITE_URL=$(SITE)

# The demo's server runs as a site does, DEBUG off (the site's own error pages, never Django's
# technical ones; collectstatic's files served by WhiteNoise), on plain HTTP at the loopback:
# no HTTPS redirect, HSTS or HTTPS-only cookies. Its secret key is made once into DEMO_VAR
# (git-ignored var/), and collectstatic runs again only when a static file or the install changed.
DEMO_VAR ?= var
DEMO_KEY := $(DEMO_VAR)/demo-secret-key
DEMO_STATIC := $(DEMO_VAR)/static
DEMO_SERVER := $(EMBEDDED) DJANGO_DEBUG=false DJANGO_SECRET_KEY="$$(cat $(DEMO_KEY))" \
	DJANGO_ALLOWED_HOSTS=$(DEMO_HOSTS) DJANGO_SECURE_SSL_REDIRECT=false \
	DJANGO_SECURE_HSTS_SECONDS=0 DJANGO_SECURE_HSTS_PRELOAD=false DJANGO_SECURE_COOKIES=false \
	DJANGO_STATIC_ROOT=$(DEMO_STATIC)
STATIC_SOURCES := $(shell find games tournaments -path '*/static/*' -type f 2>/dev/null)

$(DEMO_KEY):
	@mkdir -p $(@D)
	@umask 077 && $(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

$(DEMO_STATIC)/staticfiles.json: $(STAMP) $(STATIC_SOURCES) | $(DEMO_KEY)
	@echo "collectstatic: the demo server's static files into $(DEMO_STATIC)/"
	@$(DEMO_SERVER) $(PY) manage.py collectstatic --noinput -v 0

# The demo's server alone, on the demo's database as it is (`make demo` ends with it).
demo-server: $(STAMP) $(DEMO_STATIC)/staticfiles.json
	$(EMBEDDED) $(PY) manage.py migrate --noinput -v 0
	@echo "runserver $(DEMO_ADDRESS), DEBUG off (the site's own error pages), plain HTTP"
	@$(DEMO_SERVER) $(PY) manage.py runserver $(DEMO_ADDRESS)

demo: $(STAMP) $(DEMO_STATIC)/staticfiles.json
	$(EMBEDDED) $(PY) manage.py migrate --noinput -v 0
	$(EMBEDDED) $(PY) manage.py ddz_demo --site $(SITE)
	@echo ""
	@echo "Open in a browser (Ctrl-C stops the server):"
	@echo "  $(SITE)/                                  events"
	@echo "  $(SITE)/events/demo-duplicate/            standings of the demo event"
	@echo "  $(SITE)/events/demo-duplicate/boards/1/   traveller of board 1"
	@echo "  $(SITE)/events/archive-of-real-games/     the imported real games"
	@echo "  $(SITE)/series/demo-series-2026/          a club's series standings; names lead to profiles"
	@echo "  $(SITE)/events/demo-online-cup/online/    online against robots: sign up, enter, play"
	@echo "  $(SITE)/accounts/login/                   sign in with a demo login above"
	@echo "  $(SITE)/referee/events/demo-duplicate/    referee entry (demo-referee: table 1 of round 5)"
	@echo "  $(SITE)/organizer/events/demo-duplicate/  the organizer's dashboard (demo-organizer)"
	@echo "  $(SITE)/admin/                            administration (demo-organizer)"
	@echo ""
	@echo "runserver $(DEMO_ADDRESS), DEBUG off (the site's own error pages), plain HTTP"
	@$(DEMO_SERVER) $(PY) manage.py runserver $(DEMO_ADDRESS)

services:
	scripts/services.sh

# The suite's processes: each has its own test database, Celery worker and queue
# (ddz_site.settings_test), a test file's tests all in one of them (its module fixtures once).
TEST_PROCESSES ?= 2

test: $(STAMP) services
	@scripts/browser.sh
	$(PY) -m pytest -n $(TEST_PROCESSES) --dist loadfile

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
	@# Every benchmark runs and prints its table; the target fails at the end if one missed a goal.
	@status=0; \
	$(PY) scripts/robot_match.py --deals 1000 || status=1; \
	$(PY) scripts/bench_standings.py || status=1; \
	$(PY) scripts/bench_changes.py || status=1; \
	$(PY) scripts/bench_changes.py --sizes 100000x2 --changed 10 --repeats 3 || status=1; \
	$(PY) scripts/bench_pipeline.py || status=1; \
	$(PY) scripts/taps.py || status=1; \
	$(PY) scripts/bench_live_tables.py --tables 300 --servers 2 || status=1; \
	$(PY) scripts/bench_online.py --entrants 10000 --concurrent 200 --seconds 60 || status=1; \
	exit $$status

# The catalogues after new strings (scripts/zh_hant.py's docstring): makemessages puts the new
# msgids into zh_Hans to translate there; zh_Hant is converted from it; both are compiled.
messages: $(STAMP)
	$(PY) manage.py makemessages -l zh_Hans --ignore=.venv --ignore=var --ignore=tests \
	    --ignore=scripts --no-obsolete
	$(PY) scripts/zh_hant.py
	cd ddz_site && $(abspath $(PY)) ../manage.py compilemessages -l zh_Hans -l zh_Hant

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
