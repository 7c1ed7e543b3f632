"""OpenRLHF's checkpoint directory as SPADE reads and tidies it.

``train_ppo_ray`` saves the model every ``--ckpt.save_steps`` steps into ``<ckpt.path>/_actor/global_step<N>``
(DeepSpeed, rotated by ``--ckpt.max_num``) and, with ``--ckpt.save_hf``, a Hugging Face snapshot into
``<ckpt.path>/global_step<N>_hf``, which OpenRLHF never deletes (about 60 GB each for a 30B model, so a
400-step run saving every 20 steps would leave 1.2 TB). ``model_checkpoint_step`` tells a resumed run
which step the model restarts from, so the shared state restores the same step; ``rotate_hf_snapshots``
keeps the newest few snapshots.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

_STEP_TAG = re.compile(r"^global_step(\d+)$")
_HF_SNAPSHOT = re.compile(r"^global_step(\d+)_hf$")


def model_checkpoint_step(ckpt_dir: Path) -> int:
    """The step of the DeepSpeed checkpoint a resumed OpenRLHF run loads (0: none, it starts afresh).

    DeepSpeed names the newest tag in ``_actor/latest``; without that file the highest ``global_step<N>``
    directory is taken, as DeepSpeed's loader would find no tag and OpenRLHF would start from step 0.
    """
    actor = ckpt_dir / "_actor"
    try:
        tag = (actor / "latest").read_text(encoding="utf-8").strip()
    except OSError:
        return 0
    match = _STEP_TAG.match(tag)
    return int(match.group(1)) if match and (actor / tag).is_dir() else 0


def rotate_hf_snapshots(ckpt_dir: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest ``global_step<N>_hf`` snapshots; returns the deleted paths."""
    if keep < 1:
        raise ValueError("keep at least one snapshot")
    try:
        snapshots = [(int(m.group(1)), path) for path in ckpt_dir.iterdir()
                     if path.is_dir() and (m := _HF_SNAPSHOT.match(path.name))]
    except OSError:
        return []
    snapshots.sort()
    doomed = [path for _, path in snapshots[:-keep]]
    for path in doomed:
        shutil.rmtree(path, ignore_errors=True)
    return doomed
