# SPDX-License-Identifier: Apache-2.0
"""Runs samples/python_bridge.ipynb's code cells in order, as a Jupyter kernel would, without
Jupyter: one namespace, each cell's last expression displayed, display() as Jupyter's, and a shown
object rendered through its _repr_svg_/_repr_png_ (which must then return an SVG / a PNG). The
notebook's JSON is checked first (nbformat 4 structure). Tilescope programs come from
TILESCOPE_CLI / TILESCOPE_BIN; the window it starts is offscreen on a private socket and stopped
afterwards. Exits non-zero on any failure; prints what each cell showed."""

import ast
import json
import linecache
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NOTEBOOK = os.path.join(ROOT, "samples", "python_bridge.ipynb")
sys.path.insert(0, os.path.join(HERE, ".."))


def check_structure(nb):
    assert nb.get("nbformat") == 4, "not an nbformat 4 notebook"
    assert nb["metadata"]["kernelspec"]["language"] == "python"
    ids = set()
    for i, c in enumerate(nb["cells"]):
        assert c["cell_type"] in ("markdown", "code"), (i, c["cell_type"])
        assert isinstance(c["source"], list) and all(isinstance(s, str) for s in c["source"])
        assert c.get("id") and c["id"] not in ids, "cell %d: missing or repeated id" % i
        ids.add(c["id"])
        if c["cell_type"] == "code":
            # Committed without outputs: what a reader sees comes from running it.
            assert c["outputs"] == [] and c["execution_count"] is None, "cell %d has outputs" % i


def shown(value):
    """What Jupyter would show for value: ("svg"|"png"|"text", payload)."""
    svg = getattr(value, "_repr_svg_", None)
    png = getattr(value, "_repr_png_", None)
    if svg and svg() is not None:
        data = svg()
        assert data.lstrip().startswith("<?xml") and "<svg" in data, "bad SVG from %r" % value
        return ("svg", data)
    if png and png() is not None:
        data = png()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad PNG from %r" % value
        return ("png", data)
    return ("text", repr(value))


def run_cell(code, ns, outputs, name):
    # IPython puts each cell's source in linecache, so inspect.getsource works on what a cell
    # defines (TileLang's @T.prim_func parses its function's source).
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    tree = ast.parse(code, name)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, name, "exec"), ns)
    if last is None:
        return None
    value = eval(compile(last, name, "eval"), ns)
    if value is not None:
        outputs.append(shown(value))
    return value


def main():
    with open(NOTEBOOK, encoding="utf-8") as f:
        nb = json.load(f)
    check_structure(nb)
    tmp = tempfile.mkdtemp(prefix="tilescope-notebook-")
    os.environ.update(TILESCOPE_SOCKET=os.path.join(tmp, "s.socket"), QT_QPA_PLATFORM="offscreen",
                      TILESCOPE_NO_DIALOGS="1", XDG_CONFIG_HOME=os.path.join(tmp, "config"),
                      TILESCOPE_RECOVERY_DIR=os.path.join(tmp, "rec"))
    ns = {"__name__": "__main__"}
    started = []
    try:
        for i, c in enumerate(nb["cells"]):
            if c["cell_type"] != "code":
                continue
            outputs = []
            ns["display"] = lambda *values: outputs.extend(shown(v) for v in values)
            value = run_cell("".join(c["source"]), ns, outputs, "<notebook cell %d>" % i)
            # Tilescope windows the cell started (show() or trace() returns the process).
            trace = ns.get("tr")
            for v in list(ns.values()) + [value, getattr(trace, "app", None)]:
                if isinstance(v, subprocess.Popen) and v not in started:
                    started.append(v)
            print("cell %d: %s" % (i, ", ".join(
                kind + (" %d bytes" % len(data) if kind != "text" else " " + data[:100])
                for kind, data in outputs) or "no output"))
            check_outputs(i, c, outputs, ns)
    finally:
        for p in started:
            p.terminate()
            p.wait(10)
    print("notebook %s: %d code cells ran" % (os.path.basename(NOTEBOOK),
                                              sum(c["cell_type"] == "code" for c in nb["cells"])))


def check_outputs(i, cell, outputs, ns):
    """What specific cells must have shown."""
    src = "".join(cell["source"])
    if src.rstrip().endswith("tilescope.render(frag)"):
        assert outputs and outputs[0][0] == "svg" and ">T31<" in outputs[0][1], outputs
    if 'fmt="png", cell=48' in src:
        assert outputs and outputs[0][0] == "png", outputs
    if "tilescope.trace()" in src and ns.get("tilelang"):
        kinds = ns["tr"].events()
        assert [(e["kind"], e["buffer"]) for e in kinds] == [("inferred", "C_local")], kinds
        assert outputs == [("text", "[('inferred', 'C_local')]")], outputs
    if "tilescope.show(" in src:
        # The window's answer when one runs (trace() started it), else the started process.
        assert outputs and ("'ok': True" in outputs[0][1] or "Popen" in outputs[0][1]), outputs


main()
