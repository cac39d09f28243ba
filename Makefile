# meldhall: the two commands of the README are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install install-dev browser services bundle lint typecheck unit bench-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,rl]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

## Debian's Chromium for the browser tests (never a downloaded browser build), and axe-core
## (pinned, from npm, into the git-ignored build/) for their accessibility checks.
AXE_VERSION := 4.10.2
AXE := build/node/node_modules/axe-core/axe.min.js

browser: $(AXE)
	@if ! command -v chromium >/dev/null 2>&1 || ! fc-list :lang=zh | grep -q .; then \
		echo "installing Debian's chromium and fonts (emoji, Chinese)"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji fonts-wqy-zenhei >/dev/null; \
	fi

## Debian's PostgreSQL and Redis for the service tests (the suite starts and stops its own).
services:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then \
		echo "installing Debian's postgresql and redis-server"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null; \
	fi

$(AXE):
	npm install --prefix build/node --no-save --no-audit --no-fund --silent axe-core@$(AXE_VERSION)

## One bundle per page script (esbuild, pinned, from npm into the git-ignored build/), served in
## place of the modules while it is current (server/static.py); without npm the modules are.
## Each page is split on its own: its script and what it needs at once, one chunk per game view
## (a table page preloads its game's alone), and the parts it loads later; dist/meta/<page>.json
## (esbuild's metafile) tells the server which chunks a page and a game need.
ESBUILD_VERSION := 0.28.2
ESBUILD := build/esbuild/node_modules/.bin/esbuild
WEB := src/meldhall/web
PAGE_SCRIPTS = $(shell sed -n 's|.*<script type="module" src="/static/\(js/[^"]*\)".*|\1|p' $(WEB)/*.html | sort -u)

bundle: $(WEB)/dist/SOURCE

$(WEB)/dist/SOURCE: $(shell find $(WEB)/js -name '*.js') $(wildcard $(WEB)/*.html) Makefile | $(VENV)/.installed
	@if [ -x $(ESBUILD) ] || npm install --prefix build/esbuild --no-save --no-audit --no-fund --silent esbuild@$(ESBUILD_VERSION); then \
		rm -rf $(WEB)/dist && \
		for entry in $(PAGE_SCRIPTS); do \
			page=$$(basename $$entry .js); \
			(cd $(WEB) && $(CURDIR)/$(ESBUILD) $$entry --bundle --splitting --format=esm --minify --target=es2022 \
				--log-level=warning --outdir=dist/js --chunk-names="chunks/$$page/[name]-[hash]" \
				--metafile=dist/meta/$$page.json) || exit 1; \
		done && \
		$(BIN)/python -m meldhall.server.static > $@.tmp && mv $@.tmp $@; \
	else echo "no esbuild (npm): the pages load their modules one by one"; fi

run: install bundle
	$(BIN)/meldhall db upgrade --data data
	$(BIN)/meldhall serve --host $(HOST) --port $(PORT)

lint: install-dev
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

typecheck: install-dev
	$(BIN)/mypy

unit: install-dev browser services bundle
	$(BIN)/pytest

test: lint typecheck unit

bench-deps: install
	$(BIN)/pip install --quiet -e '.[bench]'

clean:
	rm -rf $(VENV) build src/*.egg-info $(WEB)/dist
