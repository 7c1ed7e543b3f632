"""Training backends that consume the self-play loop's samples: embedded (CPU) and OpenRLHF (GPU)."""
