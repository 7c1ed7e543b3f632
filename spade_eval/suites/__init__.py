"""The benchmarks, one module (or package) per family; each exposes ``BENCHMARKS`` for the registry.

Reasoning: ``math`` and ``science`` are lm-eval task files over local data (``lm_eval_tasks``), scored by
``math_data`` once ``answers`` has read the reply's final answer (math-verify for math, the option letter
for GPQA); ``code`` (HumanEval+, MBPP+, LiveCodeBench) runs programs with ``code_exec`` in the sandbox
and judges them with evalplus' semantics (``evalplus_check``); ``reasoning_gym``; ``bbeh``. Tool use:
``bfcl`` (through the bfcl-eval package) and ``acebench`` (scenario classes and a checker that reproduce
ACEBench's own), both reading calls with ``tool_calls``. ``games``: a SPADE pool and TextArena games
against fixed opponents. ``lm_eval_bridge`` runs the same task files through ``lm_eval.simple_evaluate``
with a policy as lm-eval's model; ``common`` holds what several suites share.
"""
