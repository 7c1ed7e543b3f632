"""Model clients behind one async protocol (see ``base.Policy``)."""

from spade_train.policies.base import Generation, GenerationRequest, Message, Policy, SamplingParams

__all__ = ["Generation", "GenerationRequest", "Message", "Policy", "SamplingParams"]
