"""``spade-eval``: evaluation of checkpoints on reasoning, tool-use and game benchmarks.

Not built yet: the evaluation harness lands with its own issue.
"""
