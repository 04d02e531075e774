# Loupe: `make run` starts the service on the embedded default; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run` installs what the service needs (Loupe and its client, whose gate `loupe compare`
# runs: loupe_client/_gate.py); `make test` adds the development tools (pytest, ruff,
# Playwright, schemathesis, the SDK generator) on top.
SERVICE := $(VENV)/.service
STAMP := $(VENV)/.installed

.PHONY: run test lint sdk openapi worker clean vendor

# PYTHONWARNINGS=ignore silences setuptools' ten-line notice on every editable install (the
# build backend's warning, not an error: failures still print and stop make).
PIP := PYTHONWARNINGS=ignore $(BIN)/pip install --quiet --disable-pip-version-check

$(SERVICE): pyproject.toml sdk/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e ./sdk/python -e .
	touch $(SERVICE)

$(STAMP): $(SERVICE)
	$(PIP) -e ./sdk/python -e '.[dev]'
	touch $(STAMP)

run: $(SERVICE)
	$(BIN)/loupe serve

worker: $(SERVICE)
	$(BIN)/loupe worker

CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Tests start their own PostgreSQL and Redis on loopback; they only need the binaries. The
# console's browser tests drive Debian's Chromium (never `playwright install`: no CDN here).
# The TypeScript client's tests (tests/sdk/test_typescript.py) run it under Node: its
# dependencies come from the committed lockfile.
test: $(STAMP) sdk/typescript/node_modules/.installed
	@command -v redis-server >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq redis-server >/dev/null; }
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; }
	CHROMIUM_PATH=$(CHROMIUM) $(BIN)/pytest -q -n 2 --durations=30

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

openapi: $(STAMP)
	$(BIN)/loupe openapi > openapi.json

# The SDKs' generated parts (sdk/generate.py), then the TypeScript client built and its
# dependencies installed from the committed lockfile.
sdk: openapi sdk/typescript/node_modules/.installed
	$(BIN)/python sdk/generate.py
	cd sdk/typescript && npm run --silent build

sdk/typescript/node_modules/.installed: sdk/typescript/package-lock.json
	cd sdk/typescript && npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) var sdk/typescript/node_modules sdk/typescript/dist

# Run by hand only, to change a vendored version (then update the names in app/console/):
# the copies are committed, so neither `make test` nor a user's machine needs npm or a CDN.
VENDOR := app/console/static/vendor
vendor:
	rm -rf .npmpack && mkdir -p .npmpack $(VENDOR)
	cd .npmpack && npm pack -q swagger-ui-dist@5.35.0 redoc@2.5.4 htmx.org@2.0.11
	tar -xzOf .npmpack/swagger-ui-dist-5.35.0.tgz package/swagger-ui-bundle.js > $(VENDOR)/swagger-ui-bundle-5.35.0.js
	tar -xzOf .npmpack/swagger-ui-dist-5.35.0.tgz package/swagger-ui-bundle.js.LICENSE.txt > $(VENDOR)/swagger-ui-bundle-5.35.0.js.LICENSE.txt
	tar -xzOf .npmpack/swagger-ui-dist-5.35.0.tgz package/swagger-ui.css > $(VENDOR)/swagger-ui-5.35.0.css
	tar -xzOf .npmpack/swagger-ui-dist-5.35.0.tgz package/LICENSE > $(VENDOR)/swagger-ui.LICENSE
	tar -xzOf .npmpack/swagger-ui-dist-5.35.0.tgz package/NOTICE > $(VENDOR)/swagger-ui.NOTICE
	# ReDoc's "API docs by Redocly" logo comes from its CDN: an empty inline SVG instead.
	tar -xzOf .npmpack/redoc-2.5.4.tgz package/bundles/redoc.standalone.js \
		| sed "s#https://cdn.redoc.ly/redoc/logo-mini.svg#data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E#" \
		> $(VENDOR)/redoc.standalone-2.5.4.js
	tar -xzOf .npmpack/redoc-2.5.4.tgz package/LICENSE > $(VENDOR)/redoc.LICENSE
	tar -xzOf .npmpack/htmx.org-2.0.11.tgz package/dist/htmx.min.js > $(VENDOR)/htmx-2.0.11.min.js
	tar -xzOf .npmpack/htmx.org-2.0.11.tgz package/LICENSE > $(VENDOR)/htmx.LICENSE
	rm -rf .npmpack
