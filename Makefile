# Two commands: `make demo` and `make test`. Both set themselves up.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
DEBS    := libx11-6 libegl1 libgl1

.PHONY: demo test bench setup debs clean

setup: $(STAMP) debs

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	$(BIN)/python -m compileall -q engine rules tools >/dev/null
	touch $(STAMP)

# Debian libraries for Panda3D's offscreen renderer, installed only when missing.
debs:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

demo: setup
	$(BIN)/eldfall demo scenes/skirmish.yaml

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/eldfall bench

clean:
	rm -rf $(VENV) out
