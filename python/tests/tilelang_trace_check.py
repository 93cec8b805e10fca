# SPDX-License-Identifier: Apache-2.0
"""tilescope.trace() around the real TileLang: run by the .venv's Python that imports tilelang
(tests/package/CMakeLists.txt) with TILESCOPE_CLI and TILESCOPE_BIN set. Lowers the kernels of
tools/gen_logs.py inside the block, with the real tilescope GUI (offscreen, private socket)
following the log, and checks that the log holds what the committed TileLang logs of the same
kernels hold, as `tilescope-cli import-dump` reads it and as the window counted it live.
Exits non-zero on any mismatch."""

import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402
from tilelang import tvm  # noqa: E402

import tilescope  # noqa: E402
from tilescope import _app  # noqa: E402
from gen_logs import TARGET, k_conflict_parallel, k_gemm  # noqa: E402

LOGS = os.path.join(ROOT, "tests", "data", "logs")


def dump(path):
    cli = os.environ["TILESCOPE_CLI"]
    out = subprocess.run([cli, "import-dump", path, "--json"], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)["events"]


def layouts(events, kind):
    return [[(lay["kind"], lay.get("mapping")) for lay in e.get("layouts", [])]
            for e in events if e["kind"] == kind]


def window_trace(pred, what):
    st = None
    for _ in range(200):
        st = _app.request({"status": True})
        if st and pred(st["trace"]):
            return st["trace"]
        time.sleep(0.1)
    raise AssertionError("the window's Trace panel never showed %s: %s" % (what, st))


def main():
    tmp = tempfile.mkdtemp(prefix="tilescope-trace-check-")
    os.environ.update(TILESCOPE_SOCKET=os.path.join(tmp, "s.socket"), QT_QPA_PLATFORM="offscreen",
                      TILESCOPE_NO_DIALOGS="1", XDG_CONFIG_HOME=os.path.join(tmp, "config"),
                      TILESCOPE_RECOVERY_DIR=os.path.join(tmp, "rec"))
    assert _app.request({"status": True}) is None
    cache_before = tilelang.is_cache_enabled()
    proc = None
    try:
        # The gemm of TileLang's visual_layout_inference example: one inferred fragment.
        gemm_log = os.path.join(tmp, "gemm.log")
        with tilescope.trace(path=gemm_log, echo=False) as t:
            proc = t.app  # Tilescope started, following gemm.log
            assert isinstance(proc, subprocess.Popen), proc
            assert t.tilelang_enabled
            assert not tilelang.is_cache_enabled()
            with tvm.target.Target(TARGET):
                tilelang.lower(k_gemm(T), target=TARGET)
        with open(os.path.join(LOGS, "gemm_visual_layout_inference.log")) as f:
            want = f.read()
        got = t.text()
        assert got == want, "trace log:\n%s\ncommitted log:\n%s" % (got, want)
        ev = dump(gemm_log)
        assert [(e["kind"], e["buffer"]) for e in ev] == [("inferred", "C_local")], ev
        assert "problem" not in ev[0] and ev[0]["layouts"][0]["mapping"].startswith("T.Fragment(")
        tr = window_trace(lambda tr: tr["source"] == gemm_log and tr["events"] == len(ev),
                          "gemm.log's %d event" % len(ev))
        assert tr["following"] and tr["visible"], tr

        # Everything is back as it was: no pass switched on, the kernel cache as before.
        assert "tl.layout_visualization_enable" not in dict(
            tvm.transform.PassContext.current().config)
        assert "tl.layout_visualization_enable" not in dict(tvm.transform.PassContext().config)
        assert tilelang.is_cache_enabled() == cache_before

        # A layout conflict: the compile raises out of the block; the log ends with the error
        # that names both layouts, which the Trace panel shows as a comparison.
        conflict_log = os.path.join(tmp, "conflict.log")
        raised = None
        try:
            with tilescope.trace(path=conflict_log, echo=False) as t2:
                with tvm.target.Target(TARGET):
                    tilelang.lower(k_conflict_parallel(T), target=TARGET)
        except Exception as e:  # tvm.error.InternalError
            raised = e
        assert raised is not None and "Layout infer conflict" in str(raised), raised
        assert t2.app == {"ok": True}, t2.app  # handed to the running window
        ev2 = dump(conflict_log)
        golden = dump(os.path.join(LOGS, "conflict_parallel_cast.log"))
        got_pairs = layouts(ev2, "parallel_conflict")
        assert got_pairs and got_pairs == layouts(golden, "parallel_conflict"), (got_pairs, golden)
        assert all(m for pair in got_pairs for _, m in pair), got_pairs  # both layouts parsed
        tr = window_trace(lambda tr: tr["source"] == conflict_log and tr["events"] == len(ev2),
                          "conflict.log's %d events" % len(ev2))
        print("tilescope.trace with TileLang %s: gemm log identical to the committed one "
              "(%d event), conflict log %d events (%s), window followed both: OK"
              % (tilelang.__version__, len(ev), len(ev2),
                 ", ".join(sorted({e["kind"] for e in ev2}))))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)


main()
