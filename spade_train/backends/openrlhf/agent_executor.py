"""The file OpenRLHF loads with ``--train.agent_func_path``: its ``AgentExecutor`` plays SPADE's rows.

Each rollout engine imports this file and builds ``AgentExecutor()`` with no arguments. Everything it
needs comes from the rows' labels (which run, which role) and the run's shared-state actor (the configuration),
so the same file serves every run; the launcher passes its installed path. The work is done by
``spade_train.backends.openrlhf.executor.SpadeAgentExecutor``.
"""

from openrlhf.utils.agent import AgentExecutorBase

from spade_train.backends.openrlhf.executor import SpadeAgentExecutor


class AgentExecutor(SpadeAgentExecutor, AgentExecutorBase):
    """SPADE's executor as OpenRLHF's ``AgentExecutorBase`` (OpenRLHF checks the subclass).

    The rollout actor builds it before its vLLM engine, so the WebAssembly sandbox (about 40 s to
    compile on a node's first use) starts building here, on a worker thread, while the engine loads.
    """

    def __init__(self) -> None:
        super().__init__(warm_sandbox="wasm")
