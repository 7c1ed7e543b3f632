"""A failing fuzz case, told so that a designer model can repair the environment from it."""

from __future__ import annotations

from dataclasses import dataclass, field

FUZZ_PROPERTIES: dict[str, str] = {
    "fuzz_no_exceptions": "step() and reset() never raise, whatever the action",
    "fuzz_return_types": "every reset() and step() return has the contract's types",
    "fuzz_reward_range": "every reward is finite and inside the declared range",
    "fuzz_determinism": "the same seed and actions reproduce the trajectory exactly",
    "fuzz_terminates": "every episode ends within max_turns",
    "fuzz_reset_isolation": "reset(seed) after any sequence behaves like a fresh reset(seed)",
    "fuzz_instance_isolation": "two instances of the class share no state",
    "fuzz_post_episode": "after the episode ended, further steps give no reward and stay ended",
    "fuzz_feasible": "solution(), asked again after an episode and reset(seed), still wins",
    "fuzz_no_hang": "no call exceeds the time limit, the memory limit or crashes the sandbox",
}
"""Property name -> what it demands. Names are stable: reports and designer feedback key on them."""


@dataclass(frozen=True)
class Counterexample:
    """The (shrunk) evidence that a property fails."""

    property: str
    seed: int | None
    actions: list[str]
    step: int | None
    expected: str
    got: str
    detail: str | None = field(default=None)

    def summary(self) -> str:
        """One line for reports."""
        where = f" at step {self.step}" if self.step is not None else ""
        return (
            f"{FUZZ_PROPERTIES.get(self.property, self.property)}: violated{where} with seed {self.seed} "
            f"after {len(self.actions)} action(s) {_short_list(self.actions)}; expected {self.expected}, "
            f"got {self.got}."
        )

    def feedback(self, class_name: str | None = None) -> str:
        """A self-contained repair prompt fragment: what to run, what happened, what should happen.

        ``class_name`` is the environment's class, so the reproduction can be pasted as it is.
        """
        name = class_name if class_name and class_name.isidentifier() else "YourEnv"
        lines = [
            f"Property violated: {self.property} ({FUZZ_PROPERTIES.get(self.property, '')}).",
            "Minimal reproduction:",
            f"    env = {name}(); obs, info = env.reset(seed={self.seed})",
        ]
        if self.detail and self.detail.startswith("Scenario:"):
            lines[1] = f"Minimal reproduction ({self.detail[len('Scenario: '):].rstrip('.')}):"
        for index, action in enumerate(self.actions, start=1):
            marker = "   <-- fails here" if self.step == index else ""
            lines.append(f"    env.step({action!r}){marker}")
        lines += [f"Expected: {self.expected}", f"Got: {self.got}"]
        if self.detail and not self.detail.startswith("Scenario:"):
            lines += ["Details:", self.detail]
        return "\n".join(lines)


def _short_list(actions: list[str], limit: int = 4) -> str:
    shown = [repr(a if len(a) <= 40 else a[:37] + "...") for a in actions[:limit]]
    more = f", ... ({len(actions) - limit} more)" if len(actions) > limit else ""
    return "[" + ", ".join(shown) + more + "]"
