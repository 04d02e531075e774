# Loupe: `make run` starts the service on the embedded default; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint sdk openapi worker clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/loupe serve

worker: $(STAMP)
	$(BIN)/loupe worker

# Tests start their own PostgreSQL and Redis on loopback; they only need the binaries.
test: $(STAMP)
	@command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }
	$(BIN)/pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

openapi: $(STAMP)
	$(BIN)/loupe openapi > openapi.json

sdk: openapi
	$(BIN)/openapi-python-client generate --path openapi.json --output-path sdk/python \
		--overwrite --meta setup --config sdk/config.yml

clean:
	rm -rf $(VENV) var sdk/python
