# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench contracts faults clean help dice-model

help:
	@echo "make run    start the embedded broker, every service and the floor simulator"
	@echo "make test   run the linters, then the whole test suite (starts its own broker)"
	@echo "make lint   ruff (style, bugs), mypy (types), lint-imports (the layers)"
	@echo "make bench  run the benchmarks and rewrite BENCHMARKS.md (ONLY=name to run one)"
	@echo "make faults run every fault scenario on the real broker and rewrite RELIABILITY.md"
	@echo "make dice-model  retrain the dice face classifier (services/vision/dice/faces.onnx)"

# (Re)install when pyproject.toml changes; the stamp keeps a second run fast.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/casino run

# Linters, not hand-written checks: ruff (pyflakes, pycodestyle, bugbear, import order),
# mypy (types, pydantic plugin) and import-linter (the layers of README.md) are configured in
# pyproject.toml. `make test` runs them first, so CI (.ci/run) does too.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# The suite runs on PYTEST_WORKERS processes (pytest-xdist; 0 = in this process). Every e2e and
# CLI test module starts its own embedded broker, so modules never see each other's messages.
# `make test PYTEST_ARGS="tests/table -x"` selects tests as before.
PYTEST_WORKERS ?= 2

test: lint
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The fault suite (tests/faults): every scenario, one at a time (each starts a broker and the
# services as processes, and kills them); `make test` runs only its short scenarios.
faults: $(STAMP)
	CASINO_FAULTS=full FAULTS_REPORT=RELIABILITY.md FAULTS_COMMAND="make faults" \
		$(PY) -m pytest -q -n 0 -m faults tests/faults $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m tests.bench.run $(ONLY)

contracts: $(STAMP)
	$(VENV)/bin/casino contracts export

# The dice face classifier: crops from development frames (never the evaluation seeds), then
# training in an environment of its own, since the floor itself needs no PyTorch.
TRAIN_VENV := .venv-train
CROPS      := .cache/dice-crops
# Every crops source but the solid camera's: its flat dice showing their sides taught the
# network that a side face may be flat (services/vision/README.md, "Tried in stop 29").
DICE_SOURCES = tuning,first,leaning,wide,cocked,white,white_leaning
# From scratch by default. Stop 35's network is network B (git show
# 8aed04c:services/vision/dice/faces.onnx > b.onnx) fine-tuned on these sources:
#   make dice-model INIT=b.onnx EPOCHS=5 MAX_LR=1e-3
# and the shipped one (stop 37) that network fine-tuned again with a second draw of them
# (dice_crops --seed SOURCE=SEED): services/vision/README.md, step 16, gives the commands.
TRAIN_ARGS = $(if $(INIT),--init $(INIT)) --epochs $(or $(EPOCHS),10) --max-lr $(or $(MAX_LR),3e-3)

dice-model: $(STAMP)
	test -x $(TRAIN_VENV)/bin/python || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q torch==2.13.0 numpy opencv-python-headless onnx onnxruntime==1.32.0
	mkdir -p $(CROPS)
	$(PY) -m services.scenes.dice_crops $(CROPS)/train.npz --frames $(or $(FRAMES),2400) \
		--sources $(DICE_SOURCES)
	$(PY) -m services.scenes.dice_crops $(CROPS)/val.npz --frames 200 --validation \
		--sources $(DICE_SOURCES)
	PYTHONPATH=. $(TRAIN_VENV)/bin/python -m services.scenes.train_faces \
		$(CROPS)/train.npz $(CROPS)/val.npz services/vision/dice/faces.onnx $(TRAIN_ARGS)

clean:
	rm -rf $(VENV) $(TRAIN_VENV) .cache var logs
