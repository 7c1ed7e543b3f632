"""Radio Tuner: find a hidden FM station by the sound of the static (skill: Search under noisy feedback).

A station broadcasts on one hidden frequency between 87.5 and 108.0 MHz (0.1 MHz steps). Tuning the
dial to a frequency tells the player how close it is only roughly (static, hiss, murmur, voices,
almost), never in which direction. Eight turns; `status` shows the dial and the battery.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LOW, _HIGH = 875, 1080  # tenths of a MHz


def _mhz(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


class RadioTunerEnv:
    """Tune the dial until the station locks in."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._station = _LOW
        self._dial = _LOW
        self._callsign = ""
        self._turn = 0
        self._quiet = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Hide the station and set the dial somewhere else."""
        rng = random.Random(seed)
        self._station = rng.randint(_LOW, _HIGH)
        self._dial = rng.choice([f for f in range(_LOW, _HIGH + 1, 10) if abs(f - self._station) > 30])
        self._callsign = "".join(rng.choice("KWXZ") + "".join(rng.sample("ABCDEFGHJLMNPRSTUVY", 3)))
        self._turn, self._quiet, self._won = 0, False, False
        text = (
            f"Radio Tuner. Station {self._callsign} is on the air somewhere between 87.5 and 108.0 MHz.\n"
            f"Your dial is at {_mhz(self._dial)} MHz. Tune with \\boxed{{tune 99.3}} (or just \\boxed{{99.3}}); "
            "the speaker tells you roughly how close you are, but not in which direction.\n"
            f"\\boxed{{status}} shows the radio's display. You have {self.max_turns} turns of battery."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "dial": _mhz(self._dial)}

    def _sound(self) -> str:
        d = abs(self._dial - self._station)
        if d >= 50:
            return "only static"
        if d >= 20:
            return "a faint hiss with a rhythm in it"
        if d >= 8:
            return "a murmur of music under the noise"
        if d >= 3:
            return "voices, badly garbled"
        return "almost clear speech, slightly off"

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Tune or read the display."""
        if self._quiet:
            return "The battery is flat. reset() to try again.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip().lower() if found else ""
        m = re.fullmatch(r"(?:tune\s+(?:to\s+)?)?(\d{2,3})(?:\.(\d))?\s*(?:mhz)?", text)
        if text == "status":
            display = [f"dial {_mhz(self._dial)} MHz", "band FM"]
            display.append(f"battery {self.max_turns - self._turn} turns")
            obs = "Display: " + " | ".join(display) + "."
        elif m:
            tenths = int(m.group(1)) * 10 + int(m.group(2) or 0)
            if not _LOW <= tenths <= _HIGH:
                obs = "The dial only turns from 87.5 to 108.0 MHz."
            else:
                self._dial = tenths
                if tenths == self._station:
                    self._quiet, self._won = True, True
                    return f"{_mhz(tenths)} MHz: '...this is {self._callsign}!' Locked on.", 1.0, True, False, self._info()
                obs = f"{_mhz(tenths)} MHz: {self._sound()}."
        else:
            obs = "Tune with \\boxed{tune 101.1}, or read the display with \\boxed{status}."
        if self._turn >= self.max_turns:
            self._quiet = True
            return obs + " The battery dies.", 0.0, False, True, self._info()
        return obs, 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Tune straight to the station."""
        return [f"\\boxed{{tune {_mhz(self._station)}}}"]

    def close(self) -> None:
        """Nothing to release."""
