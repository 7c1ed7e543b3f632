"""Pages of the documentation site that are generated from the code, and the runner of its samples.

The site's reference (CLI options, the check catalogue, schemas, configuration, sandbox limits) is
rendered at build time from the objects it describes, so it cannot drift from them. Hand-written pages
ask for generated content with a directive on a line of its own, ``<!-- gen: NAME ARGS -->``; the mkdocs
hook in ``docs/gen/hooks.py`` replaces each one (``directives.py`` lists them).

``samples.py`` runs every code sample of the pages as a test (``tests/test_docs.py``) and rewrites the
captured output of console samples from real runs (``python docs/gen/update_samples.py``).
"""
