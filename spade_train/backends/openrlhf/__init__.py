"""The OpenRLHF backend: SPADE self-play on GPU clusters, driven by OpenRLHF's Ray PPO trainer.

OpenRLHF trains from a static prompt dataset and lets a Python file (``--train.agent_func_path``)
turn each prompt into a rollout. Self-play fits that shape as follows:

- ``rows``: the launcher writes placeholder rows whose label names a role. A *designer* row's samples
  each write an environment, get it checked in the sandbox and played by the agent with and without a
  hint (nested rollouts through the same engine); the reward is the designer reward. An *agent* row's
  samples each play one episode of an environment leased from the shared pool.
- ``executor``: the agent executor. It wraps the engine-agnostic self-play loop
  (``spade_train.loop``) through ``EnginePolicy``, a ``Policy`` over OpenRLHF's ``llm_engine``, so the
  designer, checker, hint, rollout and reward code is the loop's own.
- ``pool``: the environment pool and the memory, shared by every rollout engine as one Ray named actor
  (``ray_pool``), checkpointed with the run.
- ``launcher`` / ``command`` / ``driver``: ``spade-train run --backend openrlhf`` writes the rows, builds
  the ``train_ppo_ray`` command and submits the driver, which starts the pool actor and then OpenRLHF.

Nothing here is imported by the loop, and OpenRLHF, Ray and vLLM are imported only where they are used,
so the launcher's ``--dry-run`` works on a machine with neither.
"""
