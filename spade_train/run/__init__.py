"""A run: ``driver.SelfPlayRun`` (the one driver of ``spade-train run`` and ``generate-pool``, with a
``Trainer`` or none), the run directory and its checkpoints (``directory``), and what a person watches:
the progress bar (``progress``), the run's figures (``figures``) and its learning curves (``plots``)."""
