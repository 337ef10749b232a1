# nardy — two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench ladder clean

# pip byte-compiles every file it installs on one core, the test suites that numba, pandas and numpy ship
# included (about 17 s of a 31 s install); compiling on both cores without those suites takes 7 s
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test,dask]'
	$(BIN)/python -m compileall -q -j 0 -x '/tests?/' $(VENV)/lib
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/nardy show start
	$(BIN)/nardy moves start --dice 3-3
	$(BIN)/nardy openings
	$(BIN)/nardy openings --rolls 65,64,33,31 --games 2592 --output reports/demo --html
	$(BIN)/nardy review games/bot-game.txt --evaluator lookahead:neural --top 3 --output reports/demo-review --html
	@echo "Open reports/demo/report.md or reports/demo/report.html, the game review reports/demo-review/report.md and its interactive page reports/demo-review/review.html"

# nardy's own bytecode first: the suite starts hundreds of `nardy` processes, and each one compiled the
# modules it imports (0.1 s a process) where PYTHONDONTWRITEBYTECODE is set, as on this machine and CI;
# the suite on three processes (pytest-xdist) on two cores: many tests wait on subprocesses, probes and
# sockets, so a third process fills those waits (warm cache, idle: 578 s against 680 s with -n 2);
# from a fresh clone the processes compile the kernels as they go, each kernel once: the others wait
# for it (nardy_cli/core/compile_lock.py); compiling first in one step was measured slower (285 s more for
# 90 s less of suite)
test: $(STAMP)
	$(BIN)/ruff check nardy_cli tests experiments
	$(BIN)/python -m compileall -q nardy_cli
	$(BIN)/python -m pytest -q -n 3

lint: $(STAMP)
	$(BIN)/ruff check nardy_cli tests experiments

bench: $(STAMP)
	$(BIN)/python experiments/run.py $(BENCHFLAGS)

ladder: $(STAMP)
	$(BIN)/python experiments/ladder.py

clean:
	rm -rf $(VENV) build *.egg-info
	find nardy_cli -name __pycache__ -prune -exec rm -rf {} +
