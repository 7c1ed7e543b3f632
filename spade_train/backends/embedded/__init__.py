"""The embedded CPU backend: the tiny model built from scratch (``model``), its format warm-up (``warmup``),
the GRPO update (``grpo``) and the run driver's ``Trainer`` that ties them together (``trainer``)."""
