"""The learning curves and the TensorBoard mirror of metrics.jsonl: every panel, bands, gaps, title, events."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest

from spade_train.run.loggers import TensorBoardLogger, open_logger, scalars
from spade_train.run.plots import (
    HEADING_WIDTH,
    PANELS,
    SMOOTHING,
    centred_mean,
    curves_figure,
    heading_text,
    plot_metrics,
    smoothing_note,
)

SKILLS = ("Logical Deduction", "Pattern Recognition")


def _row(step: int) -> dict:
    """A row as the loop and the embedded trainer write it; iteration 7 played nothing (nulls)."""
    played = step != 7
    row = {
        "step": step, "designs": 12.0, "valid_n": 11.0, "valid_rate": 0.5 + step / 40,
        "valid_rate_low": 0.3 + step / 40, "valid_rate_high": 0.7 + step / 40, "played": 5.0 if played else 0.0,
        "regret_mean": 0.8 - step / 30 if played else None,
        "regret_mean_low": 0.6 - step / 30 if played else None, "regret_mean_high": 1.0 - step / 30 if played else None,
        "win_rate_hinted": 0.9 if played else None, "win_rate_unhinted": step / 20 if played else None,
        "return_unhinted": step / 25 if played else None, "episodes_unhinted": 30.0 if played else 0.0,
        "episodes_hinted": 30.0 if played else 0.0, "designer_reward_raw_mean": 0.2 + step / 50,
        "designer_reward_raw_mean_low": 0.1 + step / 50, "designer_reward_raw_mean_high": 0.3 + step / 50,
        "rejected/distinct_tasks": 3.0, "rejected/malformed": 1.0 if step % 2 else 0.0,
        "train_designer_loss": 0.01, "train_agent_loss": -0.2 if played else None,
        "train_designer_grad_norm": 0.3, "train_agent_grad_norm": 0.6 if played else None,
        "train_designer_kl": 0.02, "train_agent_kl": None, "zero_variance_groups": 4.0,
        # The mechanism panel's parts (tracking.with_follow adds them from attempts.jsonl before plotting).
        **({"followed_regret": 0.5 + step / 60, "family_regret": 0.4} if step > 3 and played else {}),
    }
    for index, skill in enumerate(SKILLS):
        row[f"skill/{skill}/valid_rate"] = 0.4 + index / 5
        row[f"skill/{skill}/regret_mean"] = (0.5 + index / 10) if played else None
        row[f"skill/{skill}/designer_reward_raw_mean"] = 0.1 * (index + 1)
        row[f"skill/{skill}/designs"] = 6.0
    return row


ROWS = [_row(step) for step in range(1, 16)]


@pytest.fixture(scope="module")
def figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = curves_figure(ROWS, "spade-train run: demo", "model tiny; config embedded.toml --set run.seed=3")
    yield made
    plt.close(made)


def _panel(figure, title: str):
    return next(axis for axis in figure.axes if axis.get_title() == title)


def test_every_panel_is_drawn_with_its_title(figure) -> None:
    titles = {axis.get_title() for axis in figure.axes}
    assert {panel.title for panel in PANELS} <= titles
    for axis in figure.axes:
        assert "not recorded" not in " ".join(text.get_text() for text in axis.texts), axis.get_title()


def test_the_title_names_the_model_and_the_configuration(figure) -> None:
    heading = figure.get_suptitle()
    assert "spade-train run: demo" in heading and "model tiny" in heading and "embedded.toml --set run.seed=3" in heading


def test_a_long_configuration_wraps_inside_the_figure() -> None:
    subtitle = ("model tiny (qwen2, 2 layers x 96); config embedded.toml --set run.seed=0 --set loop.reward=regret_based "
                "--set grpo.kl_to_reference={designer=0.1,agent=0.05}; 12 designs x 6 episodes per condition")
    lines = heading_text("spade-train run: demo", subtitle).split("\n")
    assert lines[0] == "spade-train run: demo" and len(lines) == 3
    assert all(len(line) <= HEADING_WIDTH for line in lines)
    assert " ".join(lines[1:]) == subtitle  # wrapped at spaces, nothing lost


def test_the_smoothing_and_its_lag_are_stated_on_the_figure(figure) -> None:
    note = figure.legends[0].get_title().get_text()  # with per-skill lines: the title of their legend
    assert f"centred {SMOOTHING}-iteration mean" in note and "no lag" in note
    assert f"last {SMOOTHING // 2} iterations" in note
    assert "too few iterations" in smoothing_note(2 * SMOOTHING)


def test_a_null_is_a_gap_never_a_zero(figure) -> None:
    regret = _panel(figure, "Regret (hinted - unhinted return)")
    bold = next(line for line in regret.get_lines() if line.get_label() == "all skills")
    values = list(bold.get_ydata())
    assert math.isnan(values[6]) and not any(value == 0.0 for value in values)  # step 7 played nothing
    assert centred_mean([1.0, None, 3.0, 5.0]) == [2.0, None, 3.0, 4.0]  # the values present nearby


def test_bands_come_from_the_recorded_intervals(figure) -> None:
    regret = _panel(figure, "Regret (hinted - unhinted return)")
    band = regret.collections[0]  # fill_between of regret_mean_low .. regret_mean_high
    heights = [y for path in band.get_paths() for _, y in path.vertices if math.isfinite(y)]
    assert min(heights) == pytest.approx(ROWS[-1]["regret_mean_low"], abs=1e-9)
    assert max(heights) == pytest.approx(ROWS[0]["regret_mean_high"], abs=1e-9)
    assert len(band.get_paths()) == 2  # broken at step 7, which has no interval
    assert _panel(figure, "Valid designs").collections, "the valid rate's Wilson band"


def test_per_skill_lines_and_the_rejection_counts(figure) -> None:
    reward = _panel(figure, "Designer reward (raw, before centring per skill)")
    # The overall line (faint and bold) plus one line per skill.
    assert len(reward.get_lines()) == 2 + len(SKILLS)
    rejected = _panel(figure, "Why designs were rejected (top checks)")
    labels = [patch.get_label() for patch in rejected.containers]
    assert labels == ["distinct_tasks", "malformed"]  # most frequent first
    assert [bar.get_height() for bar in rejected.containers[0]] == [3.0] * len(ROWS)
    legend = figure.legends[0]
    assert [text.get_text() for text in legend.get_texts()] == ["all skills", *SKILLS]


def test_training_health_panels(figure) -> None:
    health = _panel(figure, "Gradient norm and KL to the reference")
    twin = next(axis for axis in figure.axes if axis is not health and axis.bbox.bounds == health.bbox.bounds)
    assert {line.get_label() for line in health.get_lines()} >= {"designer", "agent"}
    assert "designer KL (right)" in {line.get_label() for line in twin.get_lines()}
    samples = _panel(figure, "Samples per iteration")
    assert {"designs", "played designs", "zero-variance groups"} <= {line.get_label() for line in samples.get_lines()}


def test_old_rows_say_what_is_missing_instead_of_an_empty_frame(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    old = [{"step": s, "valid_rate": 0.5, "regret_mean": 0.3} for s in (1, 2, 3)]
    made = curves_figure(old, "old run")
    texts = {axis.get_title(): " ".join(t.get_text() for t in axis.texts) for axis in made.axes}
    plt.close(made)
    assert "not recorded" in texts["Policy loss (clipped surrogate)"]
    assert "not recorded" in texts["Why designs were rejected (top checks)"]
    assert "not recorded" not in texts["Valid designs"]
    assert plot_metrics(old, tmp_path / "curves.png").stat().st_size > 10_000


# ---------------------------------------------------------------------- TensorBoard
def _events(directory: Path) -> list:
    """The events of every file in ``directory``, read as TensorBoard reads them (TFRecord framing,
    the Event protocol buffer)."""
    from tensorboardX.proto import event_pb2

    found = []
    for path in sorted(directory.glob("events.out.tfevents.*")):
        data = path.read_bytes()
        offset = 0
        while offset < len(data):
            (length,) = struct.unpack("<Q", data[offset : offset + 8])
            record = data[offset + 12 : offset + 12 + length]  # after the length and its CRC
            offset += 12 + length + 4  # the record and its CRC
            found.append(event_pb2.Event.FromString(record))
    return found


def _scalars(directory: Path) -> dict[str, list[tuple[int, float]]]:
    series: dict[str, list[tuple[int, float]]] = {}
    for event in _events(directory):
        for value in event.summary.value:
            series.setdefault(value.tag, []).append((event.step, round(value.simple_value, 6)))
    return series


def test_tensorboard_events_mirror_the_rows_and_leave_nulls_out(tmp_path: Path) -> None:
    logger = open_logger("tensorboard", tmp_path, first_step=1)
    assert isinstance(logger, TensorBoardLogger)
    for row in ROWS[:8]:
        logger.log(row)
    logger.close()
    series = _scalars(tmp_path / "tensorboard")
    assert series["valid_rate"] == [(row["step"], round(row["valid_rate"], 6)) for row in ROWS[:8]]
    assert [step for step, _ in series["regret_mean"]] == [1, 2, 3, 4, 5, 6, 8]  # step 7's null is a gap
    assert series["skill/Logical_Deduction/regret_mean"][0] == (1, 0.5)  # a space is not kept in a tag
    assert "train_agent_kl" not in series and "step" not in series


def test_a_resumed_run_purges_the_steps_it_redoes(tmp_path: Path) -> None:
    first = open_logger("tensorboard", tmp_path, first_step=1)
    for row in ROWS[:5]:
        first.log(row)
    first.close()
    resumed = open_logger("tensorboard", tmp_path, first_step=4)  # the checkpoint was after step 3
    for row in ROWS[3:6]:
        resumed.log(row)
    resumed.close()
    purges = [event for event in _events(tmp_path / "tensorboard") if event.HasField("session_log")]
    assert [event.step for event in purges] == [4]  # TensorBoard drops steps >= 4 logged before this


def test_scalars_are_the_finite_numbers_of_a_row() -> None:
    assert scalars({"step": 3, "a": 1, "b": None, "c": float("nan"), "d": True, "e": "text", "skill/x y/z": 2.0}) == {
        "a": 1.0, "skill/x_y/z": 2.0}
    assert open_logger("none", Path("unused"), first_step=1).log({"step": 1}) is None


def test_run_logger_is_the_embedded_runs_and_openrlhf_has_its_own() -> None:
    from spade_train.config import ConfigError, load_run_config

    root = Path(__file__).resolve().parents[1]
    assert load_run_config(root / "configs" / "embedded.toml", ['run.logger="tensorboard"']).run.logger == "tensorboard"
    with pytest.raises(ConfigError, match="openrlhf.logger"):
        load_run_config(root / "configs" / "recipes" / "qwen3-4b-games.toml", ['run.logger="tensorboard"'])


def test_the_mechanism_panel_reads_which_families_the_designer_chose() -> None:
    """Issue 32, item 3: per iteration, the recent regret of the families the designer's played designs
    belong to, against the average recent family (what a designer blind to the agent would get)."""
    from spade_train.run.tracking import with_follow

    attempts = [{"step": 1, "played": True, "hint": "code oak", "regret": 0.8},
                {"step": 1, "played": True, "hint": "code elm", "regret": 0.2},
                {"step": 2, "played": True, "hint": "code oak", "regret": 0.6},
                {"step": 2, "played": True, "hint": "code oak", "regret": 0.7}]
    rows = with_follow([{"step": 1}, {"step": 2}, {"step": 3}], attempts)
    assert "followed_regret" not in rows[0]  # nothing before iteration 1 to follow
    # Iteration 2 chose oak twice; over iteration 1, oak was worth 0.8 and the average family 0.5.
    assert rows[1]["followed_regret"] == pytest.approx(0.8) and rows[1]["family_regret"] == pytest.approx(0.5)
    assert "followed_regret" not in rows[2]  # iteration 3 played nothing
