"""Standard-library modules the WebAssembly guest holds for generated programs, beyond the allowlist.

Environments may import only ``spade_envs.contract.allowlist.ALLOWED_MODULES`` (the static checker
rejects anything else before it runs). Programs a model writes for a coding benchmark import more:
``from typing import *`` needs ``contextlib``, solutions use ``queue``, ``ast.literal_eval``,
``string``-style helpers, ``struct``, and so on. The guest image bakes in both lists (there is no
filesystem to import from at run time), so generated code finds every pure-Python standard-library
module that makes sense without files, network or processes. Left out on purpose: ``os``-level file and
process modules (``shutil``, ``tempfile``, ``subprocess``, ``multiprocessing``, ``pathlib``, ``glob``),
networking (``socket``, ``select``, ``asyncio``, ``urllib.request``), archives and databases
(``zipfile``, ``tarfile``, ``gzip``, ``sqlite3``), interpreter introspection and loading (``inspect``,
``importlib``, ``site``, ``ctypes``), modules that would bring ``signal``, ``socket`` or
``subprocess`` into the guest (``doctest`` through ``pdb``, ``unittest``; tests/test_sandbox_hostile.py
holds the guest to that), and modules that need C libraries the guest lacks (``bz2``, ``lzma``).

Private modules the interpreter imports lazily are listed too: ``_strptime`` (``datetime.strptime``),
``_pylong`` (conversions of very large integers), and the common text encodings.
"""

from __future__ import annotations

GENERATED_CODE_MODULES: frozenset[str] = frozenset(
    {
        # text
        "codecs", "difflib", "re", "shlex", "string", "stringprep", "textwrap", "unicodedata", "fnmatch",
        # binary data and hashing
        "base64", "binascii", "hashlib", "hmac", "secrets", "struct", "uuid", "zlib",
        # data types
        "array", "bisect", "calendar", "collections", "collections.abc", "copy", "copyreg", "datetime",
        "enum", "graphlib", "heapq", "pprint", "reprlib", "types", "weakref",
        # numbers
        "cmath", "colorsys", "decimal", "fractions", "math", "numbers", "random", "statistics",
        # functional programming
        "functools", "itertools", "operator",
        # language, typing and runtime services
        "__future__", "abc", "ast", "atexit", "contextlib", "contextvars", "dataclasses", "gc", "keyword",
        "token", "tokenize", "traceback", "typing", "warnings",
        # in-memory formats
        "csv", "html", "html.entities", "html.parser", "io", "json", "pickle", "tomllib", "urllib.parse",
        "xml.dom.minidom", "xml.etree.ElementTree", "ipaddress",
        # program structure that needs no other process
        "argparse", "getopt", "logging", "queue", "sched", "threading", "time", "timeit", "errno",
        # imported lazily by the interpreter
        "_pylong", "_strptime", "encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig",
        "encodings.utf_16", "encodings.utf_32", "encodings.cp1252", "encodings.unicode_escape",
        "encodings.raw_unicode_escape", "encodings.idna", "encodings.hex_codec", "encodings.base64_codec",
        "encodings.rot_13",
    }
)
