"""spade-eval: checkpoint evaluation on the paper's held-out benchmarks."""
