"""Model clients behind one async protocol (``base.Policy``), the one parser of model specs
(``factory``: server URLs, checkpoint directories, ``hf:``, ``vllm:``) and which model plays which role
of a run (``roles.Policies``)."""

from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams

__all__ = ["Generation", "GenerationRequest", "Message", "Policy", "SamplingParams"]
