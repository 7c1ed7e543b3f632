"""The GPU install as written (issue 36, item 5): the guide's steps, the install script, and the versions
OpenRLHF 0.11.2 itself pins, held to each other on CPU; the CPU tests run at OpenRLHF's transformers pin.

The script's install half needs a GPU node (it refuses to run without ``nvidia-smi``); its check half runs
here and must name what a CPU machine lacks.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from importlib.metadata import requires, version
from pathlib import Path

import pytest

from spade_train.config.files import tomllib
from tests.requires import require

require("openrlhf", reason="OpenRLHF is not installed (make setup installs it with --no-deps)")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-openrlhf-node.sh"
GUIDE = ROOT / "docs" / "guides" / "openrlhf.md"


def _pins() -> dict[str, str]:
    """OpenRLHF's own requirements: name (with its extra, if any) -> the exact version it pins."""
    pins = {}
    for requirement in requires("openrlhf") or []:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*==\s*([^;\s]+)\s*(?:;\s*extra\s*==\s*\"(\w+)\")?", requirement)
        if match:
            name, pinned, extra = match.groups()
            pins[f"{name}[{extra}]" if extra else name] = pinned
    return pins


def _script_value(name: str) -> str:
    match = re.search(rf"^{name}='([^']+)'$", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE)
    assert match, f"{SCRIPT.name} sets no {name}"
    return match.group(1)


def test_the_script_installs_what_openrlhf_pins_and_the_extras_the_recipes_need():
    pins = _pins()
    assert version("openrlhf") == "0.11.2"
    assert _script_value("TRANSFORMERS_VERSION") == pins["transformers"]
    assert _script_value("VLLM_VERSION") == pins["vllm[vllm]"]
    spec = _script_value("OPENRLHF_SPEC")
    assert spec == 'openrlhf[vllm,ring]==0.11.2'
    assert any(r.startswith("ring-flash-attn") and 'extra == "ring"' in r for r in requires("openrlhf") or [])
    # Every recipe that splits a sample over a ring of GPUs needs the ring extra the script installs.
    ringed = [p.name for p in (ROOT / "configs" / "recipes").glob("*.toml")
              if tomllib.loads(p.read_text(encoding="utf-8")).get("openrlhf", {}).get("ring_attn_size", 1) > 1]
    assert ringed and "ring" in spec
    # The guide shows the same two steps.
    guide = GUIDE.read_text(encoding="utf-8")
    assert f'pip install "{spec}"' in guide and 'pip install -e ".[train,openrlhf]"' in guide
    assert "scripts/install-openrlhf-node.sh" in guide
    assert subprocess.run(["bash", "-n", str(SCRIPT)], check=False).returncode == 0


def test_the_cpu_tests_run_at_openrlhfs_transformers_pin():
    """pyproject's openrlhf extra pins transformers where OpenRLHF does: a GPU install and these tests meet
    the same version."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = pyproject["project"]["optional-dependencies"]["openrlhf"]
    pinned = _pins()["transformers"]
    assert f"transformers=={pinned}" in extra
    assert version("transformers") == pinned


def test_the_check_names_what_a_cpu_machine_lacks():
    if importlib.util.find_spec("vllm") is not None:
        pytest.skip("vLLM is installed here: this is not the CPU machine the check is asked about")
    done = subprocess.run(["bash", str(SCRIPT), "--check"], capture_output=True, text=True, check=False,
                          timeout=120, env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"})
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert any("vllm is not installed (wanted 0.29.0)" in line for line in lines), lines
    assert any(line.startswith("install-openrlhf-node: ring_flash_attn cannot be imported") for line in lines), lines
    assert "Traceback" not in done.stderr


def test_the_install_half_refuses_a_machine_without_a_gpu(tmp_path):
    if any((Path(d) / "nvidia-smi").exists() for d in ("/usr/bin", "/usr/local/bin")):
        pytest.skip("this machine has nvidia-smi")
    done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, check=False, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": "false"})
    assert done.returncode == 2 and "no nvidia-smi on this node" in done.stderr and done.stderr.count("\n") == 1
