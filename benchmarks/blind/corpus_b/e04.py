"""Invoice Desk: compute the tax-inclusive total of a customer invoice with accounting tools.

The agent looks up the invoice lines, finds the sales-tax rate of the invoice's region, and reports
the grand total rounded to cents. A reconciliation tool lets it compare a figure against the ledger.

ToolUseBaseEnv is not imported: the loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_S = {"type": "string"}
_N = {"type": "number"}
_REGIONS = ["north", "south", "east", "west", "central"]
_GOODS = ["paper reams", "toner", "desk lamps", "cables", "staplers", "monitors", "chairs", "keyboards"]


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": sorted(props)}


class InvoiceDeskEnv(ToolUseBaseEnv):  # noqa: F821
    """Tool-use: look up lines and tax, report the grand total."""

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        invoice = f"INV-{rng.randint(10000, 99999)}"
        region = rng.choice(_REGIONS)
        rates = {r: rng.choice([4.0, 5.5, 6.0, 6.25, 7.0, 7.5, 8.25, 9.0]) for r in _REGIONS}
        lines = [{"item": g, "qty": rng.randint(1, 12), "unit_price": round(rng.uniform(2, 180), 2)}
                 for g in rng.sample(_GOODS, rng.randint(2, 4))]
        subtotal = sum(l["qty"] * l["unit_price"] for l in lines)
        total = round(subtotal * (1 + rates[region] / 100) + 1e-9, 2)
        self._state = {"invoice": invoice, "region": region, "rates": rates, "lines": lines, "total": total}
        self._expected_answer = f"{total:.2f}"
        self._tools = {
            "get_invoice": {"description": "Return the line items (item, qty, unit_price) of an invoice.",
                            "parameters": _params(invoice_id=_S)},
            "get_tax_rate": {"description": "Sales-tax rate (percent) of a region.",
                             "parameters": _params(region=_S)},
            "reconcile": {"description": "Compare a proposed grand total with the ledger entry of an invoice.",
                          "parameters": _params(invoice_id=_S, total=_N)},
        }
        obs = (f"You are an accounts assistant. Invoice {invoice} was issued in the {region} region. "
               "Compute its grand total including sales tax (subtotal x (1 + rate/100)), rounded to cents, "
               "and reply with <answer>TOTAL</answer>.")
        return obs, {"invoice": invoice}

    def _check_invoice(self, invoice_id: Any) -> None:
        if str(invoice_id).strip().upper() != self._state["invoice"]:
            raise ValueError(f"unknown invoice {invoice_id!r}")

    def tool_get_invoice(self, invoice_id: Any = None) -> str:
        self._check_invoice(invoice_id)
        return "\n".join(f"{l['item']}: qty {l['qty']} @ {l['unit_price']:.2f}" for l in self._state["lines"])

    def tool_get_tax_rate(self, region: Any = None) -> str:
        key = str(region).strip().lower()
        if key not in self._state["rates"]:
            raise ValueError(f"unknown region {region!r}")
        return f"{self._state['rates'][key]}%"

    def tool_reconcile(self, invoice_id: Any = None, total: Any = None) -> str:
        self._check_invoice(invoice_id)
        try:
            value = float(total)
        except (TypeError, ValueError):
            raise ValueError("total must be a number")
        if abs(value - self._state["total"]) < 0.005:
            return "Ledger entry matches."
        return f"Discrepancy: the ledger records {self._state['total']:.2f} for this invoice."

    def solution(self) -> list[Any]:
        inv, region = self._state["invoice"], self._state["region"]
        return [{"name": "get_invoice", "arguments": {"invoice_id": inv}},
                {"name": "get_tax_rate", "arguments": {"region": region}},
                self._expected_answer]
