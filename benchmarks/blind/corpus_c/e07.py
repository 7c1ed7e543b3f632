"""Warehouse stock audit (tool use): count the units of one SKU across every storage bin."""

import random

_PRODUCTS = ["hex bolts M6", "wing nuts", "cable ties", "pipe clamps", "wall plugs", "hinge pins",
             "washers 8mm", "rivets", "spring clips", "eye hooks"]


class StockAuditEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    def __init__(self, max_turns=10, **kwargs):
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed=None):
        rng = random.Random(seed)
        skus = [f"SKU-{rng.randint(10000, 99999)}" for _ in range(5)]
        while len(set(skus)) < 5:
            skus.append(f"SKU-{rng.randint(10000, 99999)}")
            skus = list(dict.fromkeys(skus))[:5]
        names = rng.sample(_PRODUCTS, 5)
        bins = {}
        for b in range(rng.randint(4, 7)):
            bin_id = f"{rng.choice('ABCDEF')}{b + 1}-{rng.randint(10, 99)}"
            bins[bin_id] = {s: rng.randint(1, 60) for s in rng.sample(skus, rng.randint(1, 4))}
        target = rng.choice(sorted({s for contents in bins.values() for s in contents}))
        total = sum(contents.get(target, 0) for contents in bins.values())
        self._state = {"bins": bins, "catalog": dict(zip(skus, names)), "adjustments": []}
        self._target, self._expected_answer = target, str(total)
        self._tools = {
            "list_bins": {"description": "List every storage bin id in the warehouse.",
                          "parameters": {"type": "object", "properties": {}}},
            "bin_contents": {"description": "Units of each SKU held in one bin.",
                             "parameters": {"type": "object", "properties": {"bin_id": {"type": "string"}},
                                            "required": ["bin_id"]}},
            "product_info": {"description": "Name of a SKU.",
                             "parameters": {"type": "object", "properties": {"sku": {"type": "string"}},
                                            "required": ["sku"]}},
            "adjust_stock": {"description": f"Write off damaged units of {target} (audit use only).",
                             "parameters": {"type": "object", "properties": {
                                 "bin_id": {"type": "string"},
                                 "quantity": {"type": "integer", "minimum": 1, "maximum": total}},
                                 "required": ["bin_id", "quantity"]}},
        }
        task = (f"You are auditing the warehouse. How many units of {target} ({names[skus.index(target)]}) "
                "are stored across all bins in total? Use the tools, then reply <answer>N</answer>.")
        return task, {"sku": target}

    def tool_list_bins(self):
        return ", ".join(sorted(self._state["bins"]))

    def tool_bin_contents(self, bin_id=None):
        contents = self._state["bins"].get(str(bin_id).strip().upper())
        if contents is None:
            raise ValueError(f"unknown bin {bin_id!r}")
        return "\n".join(f"{s}: {n} units" for s, n in sorted(contents.items())) or "empty"

    def tool_product_info(self, sku=None):
        name = self._state["catalog"].get(str(sku).strip().upper())
        if name is None:
            raise ValueError(f"unknown sku {sku!r}")
        return f"{sku}: {name}"

    def tool_adjust_stock(self, bin_id=None, quantity=None):
        raise ValueError("adjustments are locked while an audit is in progress")

    def solution(self):
        calls = [{"name": "list_bins", "arguments": {}}]
        calls += [{"name": "bin_contents", "arguments": {"bin_id": b}} for b in sorted(self._state["bins"])
                  if self._target in self._state["bins"][b]]
        return calls + [self._expected_answer]
