# One command to run the app, one to run the tests; both set up everything on a fresh machine.
#   make serve   install (system + Python packages, embedded model) and start the app on http://127.0.0.1:7860
#   make test    install, check the habits (make lint), then run the test suite
#   make lint    ruff (lint + format), mypy, the import-linter contracts and deptry alone
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
WHEELS := .cache/wheels
LLAMA := llama-cpp-python==0.3.36
APT_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa \
  tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-nld qpdf ghostscript poppler-utils chromium chromium-driver
STAMP := $(VENV)/.installed

.PHONY: serve test lint install system clean

serve: install
	GRADIO_ANALYTICS_ENABLED=False $(VENV)/bin/docpilot serve

test: install
	$(MAKE) --no-print-directory lint
	$(VENV)/bin/pytest -q

# Habits as checks: lint and format (ruff), types (mypy), the architecture (import-linter), declared
# dependencies (deptry), and the README's figures against bench/results/ (bench/check_readme.py).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(VENV)/bin/deptry .
	$(PY) bench/check_readme.py

install: system $(STAMP)

# System packages the tools and browser tests use; apt-get only when something is missing.
system:
	@missing=""; \
	for bin in tesseract qpdf gs pdftoppm chromium; do command -v $$bin >/dev/null || missing="$$missing $$bin"; done; \
	for lang in osd fra deu spa ita por nld; do \
	  tesseract --list-langs 2>/dev/null | grep -qx $$lang || missing="$$missing tesseract-ocr-$$lang"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages (missing:$$missing)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi

$(PY):
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found; set PYTHON=python3"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# llama-cpp-python compiles for ~5 minutes: build a portable wheel once into a git-ignored folder and reuse it.
$(STAMP): pyproject.toml | $(PY)
	$(PIP) install -q torch==2.13.0
	@ls $(WHEELS)/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1 || \
	  CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PIP) wheel -q --no-deps --wheel-dir $(WHEELS) $(LLAMA)
	$(PIP) install -q --find-links $(WHEELS) -e ".[local,dev]"
	$(VENV)/bin/docpilot warm --backend local  # the model's prompt prefix, read once here, not on a first request
	touch $(STAMP)

clean:
	rm -rf $(VENV) .pytest_cache
