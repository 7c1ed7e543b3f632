"""lm-eval task definitions over local files (run them with lm-eval's ``--include_path`` or spade-eval)."""
