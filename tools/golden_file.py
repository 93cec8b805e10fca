# SPDX-License-Identifier: Apache-2.0
"""Where the golden families live and how their files are read and written (standard library only:
the generators run under several virtual environments).

A family is stored gzipped, tests/data/goldens/<family>.json.gz: the JSON text is about ten times
its compressed size, and the working tree must stay under the device tool's 64 MiB. A name that
ends in .gz is written and read gzipped, any other name as plain text (a scratch --out or --save
to look at). The gzip stream carries no file name and mtime 0, so the same content gives the same
bytes and regenerating an unchanged family leaves nothing to commit. tests/support/test_file.cpp
is the C++ reader, which follows the same rule."""
from __future__ import annotations

import contextlib
import glob
import gzip
import io
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN_DIR = os.path.join(ROOT, "tests", "data", "goldens")
SUFFIX = ".json.gz"


def golden_path(out_dir, family):
    """The file a family is written to in out_dir."""
    return os.path.join(out_dir, family + SUFFIX)


def golden_paths(golden_dir=GOLDEN_DIR):
    """Every family's file, in name order."""
    return sorted(glob.glob(os.path.join(golden_dir, "*" + SUFFIX)))


def family_of(path):
    """cute for .../cute.json.gz (and for a scratch cute.json)."""
    name = os.path.basename(path)
    for suffix in (".gz", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def open_text(path):
    """The file's JSON text for reading, inflated when its name ends in .gz."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def load(path):
    with open_text(path) as f:
        return json.load(f)


@contextlib.contextmanager
def writing(path):
    """A text stream whose content lands at path when the block ends, gzipped at level 9 (no
    name, mtime 0) when the name ends in .gz. Written beside it first, so that a generator that
    fails half way leaves the committed family as it was."""
    tmp = path + ".partial"
    try:
        with open(tmp, "wb") as raw:
            if path.endswith(".gz"):
                with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
                    with io.TextIOWrapper(gz, encoding="utf-8", newline="\n") as f:
                        yield f
            else:
                with io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as f:
                    yield f
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
