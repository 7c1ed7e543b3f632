"""Manor mystery: deduce which guest took the brooch from the butler's notes."""

import random

_GUESTS = ["Lady Ashcombe", "Colonel Brant", "Dr Fenwick", "Miss Grey", "Mr Holloway", "Reverend Ives",
           "Madame Jolie", "Captain Kell"]
_ROOMS = ["library", "conservatory", "study", "ballroom"]
_COATS = ["green", "black", "grey"]


class ManorMysteryEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=8, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            guests = rng.sample(_GUESTS, 6)
            room = {g: rng.choice(_ROOMS) for g in guests}
            coat = {g: rng.choice(_COATS) for g in guests}
            culprit = rng.choice(guests)
            matches = [g for g in guests if room[g] == room[culprit] and coat[g] == coat[culprit]]
            if matches == [culprit]:
                break
        self._culprit = culprit
        notes = "\n".join(f"  - {g} spent the evening in the {room[g]} wearing a {coat[g]} coat." for g in guests)
        self._turn, self._over = 0, False
        obs = ("The Ashcombe brooch vanished during the party. The butler's notes:\n" + notes +
               f"\n\nA witness saw the thief in the {room[culprit]}, and a {coat[culprit]} thread was found on the "
               "display case. Who took the brooch? Accuse one guest by full name, e.g. \\boxed{Miss Grey}.")
        return obs, {"guests": guests}

    def step(self, action):
        if self._over:
            return "The case is closed.", 0.0, True, False, {}
        self._turn += 1
        a = action if isinstance(action, str) else str(action)
        p = a.rfind("\\boxed{")
        q = a.find("}", p) if p >= 0 else -1
        name = " ".join(a[p + 7:q].split()).lower() if p >= 0 and q > p else ""
        reward, term = 0.0, False
        if not name:
            obs = "Accuse someone with \\boxed{Full Name}."
        elif name == self._culprit.lower():
            reward, term, obs = 1.0, True, "Confession! You solved it."
        else:
            obs = "The inspector shakes his head: not that guest. You may accuse again."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._culprit

    def close(self):
        pass
