"""What the embedded run's tiny designer learns before self-play: a generated corpus of environment programs."""
