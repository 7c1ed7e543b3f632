"""SPADE pools in other people's training stacks: verifiers, OpenEnv and GEM, the code still sandboxed.

``pool_env`` is the one piece they share: a pool loaded from its directory (``DIR`` or ``DIR#ID``) and
an environment instance that plays it in a sandbox session of its own (the ``wasm`` backend unless told
otherwise), never in the trainer's interpreter. Each stack's adapter is a thin module over it:

* ``openenv_server``: the pool as an OpenEnv environment server (``spade-envs serve-openenv POOL``), with
  its messages in ``openenv_models`` and its typed client, ``SpadeEnv``, in ``openenv_client``;
* ``verifiers_env``: the pool as a verifiers environment (``load_environment(pool=...)``);
* ``gem_env``: pool environments registered with GEM, so ``gem.make("spade:POOL/HanoiTower-v0")`` returns
  them (``gem_ids`` makes those readable ids);
* ``third_party``: GEM, TextArena and Reasoning Gym games written as SPADE environments, for a fixed
  pool of baselines.

The stacks' packages are in the ``interop`` extra (``pip install 'spade-toolkit[interop]'``); nothing in
the SDK imports this package, so the SDK stays light.
"""
