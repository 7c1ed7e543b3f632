"""Logic simplifier: rewrite a redundant Boolean expression in a simpler equivalent form."""

import itertools
import random

_VARS = "ABCD"


class _Parser:
    """Recursive-descent parser for ~ (not), & (and), | (or), parentheses and variables A-D."""

    def __init__(self, text):
        self.s = [c for c in text if not c.isspace()]
        self.i = 0

    def parse(self):
        node = self._or()
        if self.i != len(self.s):
            raise ValueError("trailing input")
        return node

    def _peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def _or(self):
        node = self._and()
        while self._peek() == "|":
            self.i += 1
            node = ("|", node, self._and())
        return node

    def _and(self):
        node = self._not()
        while self._peek() == "&":
            self.i += 1
            node = ("&", node, self._not())
        return node

    def _not(self):
        if self._peek() == "~":
            self.i += 1
            return ("~", self._not())
        if self._peek() == "(":
            self.i += 1
            node = self._or()
            if self._peek() != ")":
                raise ValueError("missing )")
            self.i += 1
            return node
        ch = self._peek()
        if ch in _VARS and ch:
            self.i += 1
            return ("v", ch)
        raise ValueError("unexpected symbol")


def _eval(node, env):
    op = node[0]
    if op == "v":
        return env[node[1]]
    if op == "~":
        return not _eval(node[1], env)
    if op == "&":
        return _eval(node[1], env) and _eval(node[2], env)
    return _eval(node[1], env) or _eval(node[2], env)


def _table(node):
    return tuple(_eval(node, dict(zip(_VARS, bits))) for bits in itertools.product([False, True], repeat=4))


class LogicSimplifyEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        a, b, c = rng.sample(_VARS, 3)
        core = rng.choice([f"{a} & {b}", f"{a} | {b}", f"{a} & ~{b}", f"~{a} | {b}", f"({a} | {b}) & {c}",
                           f"{a} & {b} | {c}"])
        # pad with absorption / double negation / tautology terms that do not change the truth table
        pads = [lambda e: f"~~({e})", lambda e: f"({e}) | (({e}) & {c})", lambda e: f"({e}) & ({c} | ~{c})",
                lambda e: f"(({e}) | {a}) & (({e}) | ~{a})", lambda e: f"({e}) | ({b} & ~{b})"]
        expr = core
        for pad in rng.sample(pads, 3):
            expr = pad(expr)
        self._core, self._expr = core, expr
        self._table = _table(_Parser(expr).parse())
        self._turn, self._over = 0, False
        obs = ("Simplify this Boolean expression. Operators: ~ (not), & (and), | (or); & binds tighter "
               "than |.\n\nExpression: " + expr + "\n\nReply with a simplified equivalent expression using "
               "as few operators as possible, as \\boxed{expression}.")
        return obs, {"variables": list(_VARS)}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        text = action if isinstance(action, str) else str(action)
        k = text.rfind("\\boxed{")
        reward, term = 0.0, False
        candidate = None
        if k >= 0:
            depth, j = 1, k + 7
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            if depth == 0:
                candidate = text[k + 7:j - 1]
        tree = None
        if candidate is not None and len(candidate) <= 400:
            try:
                tree = _Parser(candidate).parse()
            except (ValueError, RecursionError):
                tree = None
        if tree is None:
            obs = "Could not parse your expression. Use A-D, ~, &, |, parentheses inside \\boxed{}."
        else:
            term = True
            if _table(tree) == self._table:
                reward, obs = 1.0, "Equivalent - well done."
            else:
                obs = "Not equivalent to the original expression."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        return self._core

    def close(self):
        pass
