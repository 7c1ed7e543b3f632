"""ArchiveQuestEnv: answer questions about a hidden document using search and peek commands.

Why this shape: the agent never sees the document, only three questions derived from it (which paragraph
holds two words, how many paragraphs use a word, which number or name is in the paragraph holding a rare
word). It must plan lookups: `search` returns paragraph numbers only and `peek` a short profile (length,
numbers, names), never a passage. Reward = fraction of answers correct, so partial understanding earns
partial credit. Any text can be given as `document=`; the default is an original text about a fictional guild.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_HEDGES = {"not", "or", "maybe", "perhaps", "wrong", "either", "no", "isn't", "unsure", "guess"}
"""Words that make a number answer no answer: "not 42", "42 or 17", "42 (this is wrong)"."""
_COMMAND = re.compile(r"^\s*(search|peek|answer)\b\s*(.*)$", re.IGNORECASE | re.DOTALL)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")
_TOKEN_OR_MARK = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+|[^\sA-Za-z\d]")  # punctuation ends a name
_HELP = ("One command per turn:\n- \\boxed{search <word>}: which paragraphs contain that exact word "
         "(case-insensitive)\n- \\boxed{peek <n>}: a short profile of paragraph n (length, numbers and "
         "names it mentions)\n- \\boxed{answer <a1> | <a2> | <a3>}: submit all answers; this ends the game.")
_STOP = frozenset({"about", "after", "because", "before", "being", "between", "could", "every", "first",
                   "their", "there", "these", "those", "through", "where", "which", "while", "would"})
_DOC = """The Guild of Tidewatchers was founded in 1794 by a small circle of keepers who tended the lamps
along the Corran coast. Their charter, signed in the harbour town of Velmouth, promised that no light would go
dark for want of oil or company. Any keeper who had served three winters on a rock station could join.

Each station kept a logbook, bound in oiled canvas, where the keeper recorded the weather, passing ships and
the lamp every four hours. The first guild inspector, Ottoline Brask, read each logbook twice a year.

Training began in the lamp room. Apprentices learned to trim wicks, polish the lens and wind the clockwork
that turned the beam. A full rotation took 40 seconds at Harrow Spit, and sailors knew each light by its
rhythm.

Winter was the hardest season. Supply boats could not land for weeks, so every station stored 600 litres of
oil and salted fish. In 1851 the keepers of Greywater Rock survived nine weeks of isolation, reading aloud
from the guild library.

Signals mattered as much as light. In fog, keepers sounded a horn driven by a hand pump, and the guild fixed a
code of long and short blasts for each station. The keeper at Lantern Hollow, Isaac Tembe, wrote the signal
guide.

Electric lamps arrived in 1923 and the stations were automated one by one. The last resident keeper left
Harrow Spit in 1961, and the guild became a society of historians who restore logbooks and gather in Velmouth
each summer."""


def _profile(text: str) -> dict[str, Any]:
    """Words, numbers and capitalised names (runs not at a sentence start) of one paragraph."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    names: dict[str, None] = {}  # insertion-ordered set
    for sentence in sentences:
        run: list[str] = []
        for i, tok in enumerate(_TOKEN_OR_MARK.findall(sentence) + ["."]):
            if i > 0 and tok[0].isupper() and len(tok) > 1:
                run.append(tok)
            elif run:
                names[" ".join(run)], run = None, []
    tokens = _TOKEN.findall(text)
    numbers = list(dict.fromkeys(t for t in tokens if t.isdigit()))
    return {"tokens": {t.lower() for t in tokens}, "numbers": numbers, "names": list(names),
            "words": len(tokens), "sentences": len(sentences)}


def _split(text: str) -> list[dict[str, Any]]:
    paras = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    if len(paras) < 3:  # one long block: group sentences three at a time
        sentences = re.split(r"(?<=[.!?])\s+", " ".join(paras))
        paras = [" ".join(sentences[i:i + 3]) for i in range(0, len(sentences), 3)]
    return [_profile(p) for p in paras[:60]]


class ArchiveQuestEnv:
    """Corpus-grounded interactive env (Language Understanding): research a hidden document."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max_turns
        self.kwargs = kwargs
        document = kwargs.get("document")
        self._document = document if isinstance(document, str) and len(document.split()) >= 60 else _DOC
        self._paras: list[dict[str, Any]] = []
        self._questions: list[dict[str, Any]] = []  # reset() fills both and the turn counters
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """Derive three seeded questions; fall back to the built-in text if the document is too thin."""
        rng = random.Random(seed)
        for text in (self._document, _DOC):  # the built-in text backs up a document too thin for 3 questions
            self._document, self._paras = text, _split(text)
            self._questions = self._make_questions(rng)
            if len(self._questions) == 3:
                break
        self._turn, self._done = 0, False
        listing = "\n".join(f"{i + 1}. {q['text']}" for i, q in enumerate(self._questions))
        obs = (f"An archive holds a document of {len(self._paras)} numbered paragraphs that you cannot read "
               f"directly. {_HELP}\n\nQuestions:\n{listing}\n\nYou have {self.max_turns} turns. "
               f"Reward = fraction of answers correct.")
        return obs, {"paragraphs": len(self._paras), "questions": len(self._questions)}

    def _make_questions(self, rng: random.Random) -> list[dict[str, Any]]:
        name_tokens = {t.lower() for p in self._paras for n in p["names"] for t in n.split()}
        where: dict[str, list[int]] = {}
        for i, p in enumerate(self._paras):
            for tok in sorted(p["tokens"]):
                if len(tok) >= 5 and tok.isalpha() and tok not in _STOP and tok not in name_tokens:
                    where.setdefault(tok, []).append(i)
        common = sorted(w for w, ps in where.items() if 2 <= len(ps) <= 5)
        rare: dict[int, str] = {}
        for w in sorted(where):  # one seeded rare word per paragraph, so lookups vary across seeds
            if len(where[w]) == 1 and (where[w][0] not in rare or rng.random() < 0.3):
                rare[where[w][0]] = w
        questions: list[dict[str, Any]] = []
        for kind in rng.sample(["pair", "count", "number", "name"], 4) * 3:
            q = self._question(kind, rng, where, common, rare)
            if q and len(questions) < 3 and all(q["text"] != x["text"] for x in questions):
                questions.append(q)
        return questions

    def _question(self, kind: str, rng: random.Random, where: dict[str, list[int]], common: list[str],
                  rare: dict[int, str]) -> dict[str, Any] | None:
        search = "\\boxed{search %s}"
        if kind == "count" and common:
            w = rng.choice(common)
            return {"kind": kind, "answer": str(len(where[w])), "actions": [search % w],
                    "text": f"How many paragraphs contain the word '{w}'?"}
        if kind == "pair":
            for _ in range(200 if len(common) > 1 else 0):
                a, b = rng.sample(common, 2)
                both = sorted(set(where[a]) & set(where[b]))
                if len(both) == 1:
                    return {"kind": kind, "answer": str(both[0] + 1), "actions": [search % a, search % b],
                            "text": f"Which paragraph (give its number) contains both '{a}' and '{b}'?"}
        field, what = {"number": ("numbers", "number (in digits)"), "name": ("names", "person or place name")
                       }.get(kind, ("", ""))
        options = [i for i in sorted(rare) if field and len(self._paras[i][field]) == 1]
        if options:
            i = rng.choice(options)
            return {"kind": kind, "answer": self._paras[i][field][0],
                    "actions": [search % rare[i], f"\\boxed{{peek {i + 1}}}"],
                    "text": f"Which {what} is mentioned in the paragraph containing the word '{rare[i]}'?"}
        return None

    @staticmethod
    def _correct(given: str, q: dict[str, Any]) -> bool:
        text, want = (" ".join(re.sub(r"[^a-z0-9 ]", " ", t.lower().replace(",", "")).split())
                      for t in (given, q["answer"]))
        if q["kind"] == "name":  # the full name, or one distinctive part of it ("Harrow" for "Harrow Spit")
            return text == want or (len(text) >= 4 and text in want.split())
        # The number, perhaps with a word around it ("42 lamps"), but never hedged or negated.
        return re.findall(r"\d+", text) == [want] and not set(text.split()) & _HEDGES

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run one command; only `answer` can end the episode early."""
        if self._done:
            return "The episode is over. Call reset() to start again.", 0.0, True, False, {}
        self._turn += 1
        found = [box for box in _BOXED.findall(action if isinstance(action, str) else str(action)) if box.strip()]
        match = _COMMAND.match(found[-1]) if found else None
        command, arg = (match.group(1).lower(), match.group(2).strip()) if match else ("", "")
        parts = arg.replace(";", "|").split("|")
        if command == "answer" and len(parts) == len(self._questions):
            marks = [self._correct(p, q) for p, q in zip(parts, self._questions)]
            self._done = True
            verdict = ", ".join(f"Q{i + 1} {'correct' if m else 'wrong'}" for i, m in enumerate(marks))
            return f"Answers: {verdict}.", sum(marks) / len(marks), True, False, {"score": sum(marks)}
        obs = self._lookup(command, arg)
        truncated = self._done = self._turn >= self.max_turns
        if truncated:
            obs += " Out of turns. The answers were: " + " | ".join(q["answer"] for q in self._questions)
        return obs, 0.0, False, truncated, {}

    def _lookup(self, command: str, arg: str) -> str:
        """Search or peek; the reply names paragraphs or lists a few facts, never a passage."""
        if command == "search":
            words = _TOKEN.findall(arg.lower())
            if len(words) != 1:
                return "search takes exactly one word, e.g. \\boxed{search lamp}."
            hits = ", ".join(str(i + 1) for i, p in enumerate(self._paras) if words[0] in p["tokens"])
            return f"'{words[0]}' appears in paragraph(s): {hits or 'none'}."
        if command == "peek":
            n = int(arg) if re.fullmatch(r"[0-9]{1,5}", arg) else 0
            if not 1 <= n <= len(self._paras):
                return f"peek needs a paragraph number from 1 to {len(self._paras)}."
            p = self._paras[n - 1]
            numbers, names = ", ".join(p["numbers"][:3]) or "none", ", ".join(p["names"][:3]) or "none"
            return f"Paragraph {n}: {p['words']} words in {p['sentences']} sentence(s); " \
                f"numbers mentioned: {numbers}; names mentioned: {names}."
        if command == "answer":
            return f"Give exactly {len(self._questions)} answers separated by '|'."
        return "Unknown command. Use \\boxed{search <word>}, \\boxed{peek <n>} or \\boxed{answer ...}."

    def solution(self) -> list[str]:
        """Reference trajectory: the lookups each question needs, then the full answer."""
        actions = list(dict.fromkeys(a for q in self._questions for a in q["actions"]))
        return actions + ["\\boxed{answer " + " | ".join(q["answer"] for q in self._questions) + "}"]

    def close(self) -> None:
        """Nothing to release."""
