"""Rerun the samples of documentation pages and rewrite their console output from the real runs.

    .venv/bin/python docs/gen/update_samples.py docs/tutorial/first-environment.md [PAGE...]

Review the diff afterwards: it shows exactly what the tools now print.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spade_docgen.samples import SampleError, parse_page, refreshed_page, run_page

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", type=Path, help="Markdown pages under docs/")
    args = parser.parse_args(argv)
    bin_dir = Path(sys.executable).parent
    for page in args.pages:
        try:
            samples = parse_page(page)
        except (OSError, SampleError) as error:
            sys.stderr.write(f"update_samples: error: {error}\n")
            return 2
        outcomes = run_page(samples, ROOT, bin_dir)
        failed = [o for o in outcomes if o.failure and o.sample.language != "console"]
        for outcome in failed:
            sys.stderr.write(f"{outcome.failure}\n")
        try:
            text = refreshed_page(page, outcomes)
        except SampleError as error:
            sys.stderr.write(f"update_samples: error: {error}\n")
            return 1
        partial = page.with_name(f".{page.name}.tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(page)
        sys.stdout.write(f"{page}: {len(samples)} samples, {len(failed)} failed\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
