"""spade-eval: a checkpoint or a model server on the paper's held-out benchmarks, scored as each
benchmark's own scorer scores it, and runs compared in one report.

Read it in this order:

- ``benchmark``: the protocol every benchmark implements (items to load, one item scored against a
  policy) and ``EvalSettings``, every setting of an evaluation in one record;
- ``registry``: which benchmarks exist, by suite (``reasoning``, ``tool_use``, ``games``), each suite
  imported only when it is used;
- ``models``: ``--model`` turned into a policy through the toolkit's one model-spec parser;
- ``runner``: samples, seeds (sample k of an item: seed + k), concurrency and the generation ``cache``;
- ``results`` (the results document and its settings record), ``aggregates`` (each family's own overall
  score) and ``report`` (Markdown, HTML and a plot of one or more runs);
- ``suites``: the benchmarks themselves;
- ``cli``: ``spade-eval list | run | report | serve | schema``.
"""
