#!/usr/bin/env bash
# Install a GPU node for OpenRLHF runs (docs/guides/openrlhf.md, "Install"), with the versions the recipes
# are tested against, then check what was installed. Run it from a clone of this repository, in the one
# Python environment the node's Ray workers use; every node needs the same layout.
#
#   scripts/install-openrlhf-node.sh            # install, then check
#   scripts/install-openrlhf-node.sh --check    # only check an existing install
#
# The pins are OpenRLHF 0.11.2's own (tests/test_openrlhf_install.py holds them to its metadata):
# transformers 5.15.0 and vLLM 0.29.0 (its "vllm" extra), and its "ring" extra (ring-flash-attn), which
# every recipe needs for --ds.ring_attn_size 2.
set -euo pipefail

OPENRLHF_SPEC='openrlhf[vllm,ring]==0.11.2'
TRANSFORMERS_VERSION='5.15.0'
VLLM_VERSION='0.29.0'
PYTHON="${PYTHON:-python}"

cd "$(dirname "$0")/.."

if [[ "${1:-}" != "--check" ]]; then
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        echo "install-openrlhf-node: no nvidia-smi on this node: OpenRLHF's CUDA builds need a GPU node" \
             "(for CPU-only development use 'make setup')" >&2
        exit 2
    fi
    # OpenRLHF's own instructions: CUDA torch, vLLM, flash-attn, deepspeed, ring-flash-attn
    "$PYTHON" -m pip install "$OPENRLHF_SPEC"
    # this toolkit, Ray 2.55; transformers stays at OpenRLHF's pin
    "$PYTHON" -m pip install -e ".[train,openrlhf]"
fi

"$PYTHON" - "$TRANSFORMERS_VERSION" "$VLLM_VERSION" <<'PY'
import importlib.util
import sys
from importlib.metadata import PackageNotFoundError, version

wanted = {"openrlhf": "0.11.2", "transformers": sys.argv[1], "vllm": sys.argv[2], "ray": "2.55.0"}
problems = []
for name, pinned in wanted.items():
    try:
        found = version(name)
    except PackageNotFoundError:
        problems.append(f"{name} is not installed (wanted {pinned})")
        continue
    if found != pinned:
        problems.append(f"{name} {found} is installed; the recipes are tested with {pinned}")
for module, why in (("ring_flash_attn", "--ds.ring_attn_size 2 (OpenRLHF's ring extra)"),
                    ("flash_attn", "OpenRLHF's attention"), ("deepspeed", "OpenRLHF's training")):
    if importlib.util.find_spec(module) is None:
        problems.append(f"{module} cannot be imported; it is needed for {why}")
if problems:
    for problem in problems:
        print(f"install-openrlhf-node: {problem}", file=sys.stderr)
    sys.exit(1)
print("install-openrlhf-node: OpenRLHF 0.11.2, transformers, vLLM, Ray and ring attention are as the recipes expect")
PY
