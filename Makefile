# The README's two commands: `make demo` and `make test`.
.PHONY: setup setup-test demo test test-fast lint bench

PY := .venv/bin/python
BIN := .venv/bin

setup:
	bash scripts/setup.sh

setup-test:
	bash scripts/setup.sh --browser

# The main job: score and judge the sample data, write reports/.
demo: setup
	bash scripts/demo.sh

test: setup-test
	$(BIN)/ruff check .
	$(BIN)/pytest tests evaltools --nbval notebooks

# Local work: everything but the slow and browser tests (no notebooks); `make test` is the full suite.
test-fast: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -q -m "not slow and not browser" tests evaltools

lint:
	$(BIN)/ruff check .

bench: setup
	$(PY) benchmarks/scoring_speed.py
