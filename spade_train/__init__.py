"""The SPADE self-play loop and its training backends (embedded CPU trainer, OpenRLHF on Ray).

Not built yet: the self-play loop lands with its own issue. Nothing here is imported by ``spade_envs``.
"""
