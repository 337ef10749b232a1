# nardy — two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench ladder clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/nardy moves start --dice 3-3
	$(BIN)/nardy rollout start --games 20000 --seed 1
	$(BIN)/nardy openings --rolls 65,64,31 --games 2000 --output reports/demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

ladder: $(STAMP)
	$(BIN)/python benchmarks/ladder.py

clean:
	rm -rf $(VENV) build *.egg-info
