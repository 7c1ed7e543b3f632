"""The test suite.

The suite starts many Python processes (the CLI, validation workers, documentation samples, killed and
resumed runs), and each imports the project. Where the environment forbids writing bytecode
(``PYTHONDONTWRITEBYTECODE``), every one of them compiled the project's modules from source again: a
fifth of a second each, minutes over the suite. The first import here writes the bytecode once; the
processes started later only read it, which that setting allows.
"""

import sys

sys.dont_write_bytecode = False
