# SPDX-License-Identifier: Apache-2.0
"""tilescope-cli from Python: found via TILESCOPE_CLI, next to TILESCOPE_BIN, or on PATH."""

import json
import os
import shutil
import subprocess
import tempfile

from ._text import to_text


class TilescopeError(RuntimeError):
    """tilescope-cli failed (its message), or the program could not be found."""


def find_cli():
    env = os.environ.get("TILESCOPE_CLI")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise TilescopeError("TILESCOPE_CLI=%s is not an executable file" % env)
        return env
    gui = os.environ.get("TILESCOPE_BIN")
    if gui:
        for d in (os.path.dirname(gui), os.path.join(os.path.dirname(gui), "..", "cli")):
            c = os.path.join(d, "tilescope-cli")
            if os.path.isfile(c) and os.access(c, os.X_OK):
                return c
    found = shutil.which("tilescope-cli")
    if not found:
        raise TilescopeError("tilescope-cli not found: install Tilescope (its .deb or "
                             "`make install`) or set TILESCOPE_CLI to the program's path")
    return found


def _run(args):
    try:
        p = subprocess.run([find_cli()] + args, capture_output=True, text=True)
    except OSError as e:
        raise TilescopeError("cannot run tilescope-cli: %s" % e)
    if p.returncode != 0:
        msg = p.stderr.strip() or ("tilescope-cli exited with code %d" % p.returncode)
        raise TilescopeError(msg)
    return p.stdout


class Rendered:
    """A drawn grid: Jupyter shows it inline; .data holds the bytes (SVG text for svg)."""

    def __init__(self, data, fmt):
        self.data = data
        self.format = fmt

    def _repr_svg_(self):
        return self.data if self.format == "svg" else None

    def _repr_png_(self):
        return self.data if self.format == "png" else None

    def save(self, path):
        mode = "w" if self.format == "svg" else "wb"
        with open(path, mode) as f:
            f.write(self.data)

    def __repr__(self):
        return "<tilescope.Rendered %s, %d bytes>" % (self.format, len(self.data))


def render(x, fmt="svg", view=None, color=None, cell=None, scale=None, legend=True, title=True):
    """Draws x with `tilescope-cli render`; fmt is "svg" or "png"."""
    if fmt not in ("svg", "png"):
        raise ValueError("fmt must be 'svg' or 'png', not %r" % (fmt,))
    with tempfile.TemporaryDirectory(prefix="tilescope-") as d:
        out = os.path.join(d, "grid." + fmt)
        args = ["render", to_text(x), "-o", out]
        if view is not None:
            args += ["--view", str(view)]
        if color is not None:
            args += ["--color", str(color)]
        if cell is not None:
            args += ["--cell", str(cell)]
        if scale is not None:
            args += ["--scale", str(scale)]
        if not legend:
            args.append("--no-legend")
        if not title:
            args.append("--no-title")
        _run(args)
        if fmt == "svg":
            with open(out, encoding="utf-8") as f:
                return Rendered(f.read(), fmt)
        with open(out, "rb") as f:
            return Rendered(f.read(), fmt)


def table(x, summary=False):
    """Every cell of x as `tilescope-cli table` evaluates it (a dict)."""
    return json.loads(_run(["table", to_text(x)] + (["--summary"] if summary else [])))


def banks(x, access, dtype, vector=None, steps=None, store=False):
    """Bank conflicts of an access over shared layout x (`tilescope-cli banks --json`)."""
    args = ["banks", to_text(x), "--dtype", dtype, "--access", access, "--json"]
    if vector is not None:
        args += ["--vector", str(vector)]
    if steps is not None:
        args += ["--steps", str(steps)]
    if store:
        args.append("--store")
    return json.loads(_run(args))
