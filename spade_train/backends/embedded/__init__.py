"""The embedded CPU backend: a small transformers model trained in-process with a GRPO-style update."""
