"""The OpenRLHF backend: SPADE self-play on GPU clusters, driven by OpenRLHF's Ray PPO trainer.

OpenRLHF trains from a static prompt dataset and lets a Python file (``--train.agent_func_path``)
turn each prompt into a rollout. Self-play fits that shape as follows:

- ``labels`` / ``data``: the launcher writes placeholder rows whose label names a role. A *designer*
  row's samples are each one design attempt (``spade_train.loop.design.attempt_design``, the function the
  embedded loop runs too): the designer writes an environment, the checker judges it in the sandbox, the
  model writes a hint and the agent plays it with and without (nested rollouts through the same engine);
  the reward is the attempt's designer reward. An *agent* row's samples each play one episode of an
  environment leased from the shared state.
- ``executor``: the agent executor (``SpadeAgentExecutor``), over ``EnginePolicy`` (``engine_policy``), a
  ``Policy`` over OpenRLHF's ``llm_engine``, so the designer, checker, hint, rollout and reward code is
  the loop's own. ``agent_executor`` is the file OpenRLHF loads (``--train.agent_func_path``): the same
  executor as a subclass of OpenRLHF's ``AgentExecutorBase``, the only module here that imports OpenRLHF
  at import time. ``local_engine``: an ``llm_engine`` over a transformers model, so the executor runs and
  is tested on a CPU without vLLM.
- ``shared_state``: the environments agent rows play, the memory and the per-skill statistics, shared by
  every rollout engine as one Ray named actor (``ray_actor``) and checkpointed with the run.
- ``launcher`` / ``command`` / ``driver``: ``spade-train run`` with ``run.backend = "openrlhf"`` writes the
  rows, builds the ``train_ppo_ray`` command and submits the driver, which starts the shared-state actor
  and then OpenRLHF.

Nothing here is imported by the loop, and OpenRLHF, Ray and vLLM are imported only where they are used
(inside the functions that need them, and by ``agent_executor``), so the launcher's ``--dry-run`` works on
a machine with none of them.
"""
