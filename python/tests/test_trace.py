# SPDX-License-Identifier: Apache-2.0
"""tilescope.trace(): the capture itself (in child Pythons, so the descriptors it redirects are
their own), and the hand-over to the real tilescope GUI (TILESCOPE_BIN) on a private socket."""

import importlib.util
import json
import os
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import tilescope  # noqa: E402
from tilescope import _app  # noqa: E402

PRELUDE = "import sys; sys.path.insert(0, %r); import tilescope\n" % os.path.join(HERE, "..")


def run_child(body, tmp_path):
    script = tmp_path / "child.py"
    script.write_text(PRELUDE + body)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=60, cwd=str(tmp_path))


def test_captures_python_fd_c_and_child_output_in_order(tmp_path):
    log = tmp_path / "t.log"
    p = run_child("""
import ctypes, os
with tilescope.trace(path=%r, show=False, visualize=False) as t:
    print("1 python stdout")
    print("2 python stderr", file=sys.stderr)
    os.write(1, b"3 fd 1\\n")
    os.write(2, b"4 fd 2\\n")
    ctypes.CDLL(None).printf(b"5 C printf (buffered by libc)\\n")
    os.system("echo 6 child process")
    sys.__stdout__.write("7 the original sys.stdout object\\n")
print("after the block: stdout")
print("after the block: stderr", file=sys.stderr)
""" % str(log), tmp_path)
    assert p.returncode == 0, p.stderr
    lines = log.read_text().splitlines()
    assert lines == ["1 python stdout", "2 python stderr", "3 fd 1", "4 fd 2",
                     "5 C printf (buffered by libc)", "6 child process",
                     "7 the original sys.stdout object"], lines
    # Echoed to the user's stderr while the block ran; stdout and stderr are back afterwards.
    for line in lines:
        assert line in p.stderr, (line, p.stderr)
    assert p.stdout == "after the block: stdout\n", p.stdout
    assert p.stderr.endswith("after the block: stderr\n")


def test_no_echo_keeps_the_terminal_quiet(tmp_path):
    log = tmp_path / "t.log"
    p = run_child("""
import os
with tilescope.trace(path=%r, show=False, echo=False, visualize=False):
    print("only in the log")
    os.write(2, b"also only in the log\\n")
""" % str(log), tmp_path)
    assert p.returncode == 0, p.stderr
    assert log.read_text() == "only in the log\nalso only in the log\n"
    assert p.stdout == "" and p.stderr == ""


def test_an_exception_is_logged_and_raised_and_descriptors_restored(tmp_path):
    log = tmp_path / "t.log"
    p = run_child("""
import os
try:
    with tilescope.trace(path=%r, show=False, visualize=False):
        print("before the error")
        raise ValueError("Layout infer conflict between a and b")
except ValueError as e:
    os.write(1, b"caught: " + str(e).encode() + b"\\n")
""" % str(log), tmp_path)
    assert p.returncode == 0, p.stderr
    text = log.read_text()
    assert text.startswith("before the error\nTraceback (most recent call last):\n"), text
    assert text.endswith("ValueError: Layout infer conflict between a and b\n"), text
    assert p.stdout == "caught: Layout infer conflict between a and b\n"
    # The traceback goes to the log only: Python reports the exception itself.
    assert "Traceback" not in p.stderr


def test_a_default_log_and_a_large_burst(tmp_path):
    # More than a pipe's buffer (64 KiB) in one write: the copying thread drains it meanwhile.
    p = run_child("""
import os
with tilescope.trace(show=False, echo=False, visualize=False) as t:
    os.write(1, b"x" * 300000 + b"\\n")
print(t.path)
print(len(open(t.path).read()))
""", tmp_path)
    assert p.returncode == 0, p.stderr
    path, size = p.stdout.split()
    assert os.path.basename(path).startswith("tilescope-trace-") and path.endswith(".log")
    assert int(size) == 300001
    os.unlink(path)


def test_visualization_switch_without_and_with_tilelang(tmp_path):
    has_tilelang = importlib.util.find_spec("tilelang") is not None
    with tilescope.trace(path=str(tmp_path / "t.log"), show=False, echo=False) as t:
        pass
    # Without TileLang there is no pass to turn on: trace() still captures.
    assert t.tilelang_enabled == has_tilelang


@pytest.mark.skipif(not os.environ.get("TILESCOPE_BIN"), reason="TILESCOPE_BIN not set")
def test_trace_starts_tilescope_then_it_follows_the_log_live(tmp_path, monkeypatch):
    monkeypatch.setenv("TILESCOPE_SOCKET", str(tmp_path / "s.socket"))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setenv("TILESCOPE_NO_DIALOGS", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TILESCOPE_RECOVERY_DIR", str(tmp_path / "rec"))
    source = os.path.join(HERE, "..", "..", "tests", "data", "logs", "flash_attn_fwd.log")
    with open(source) as f:
        lines = f.read().splitlines(keepends=True)
    blocks = [lines[i:i + 10] for i in range(0, len(lines), 10)]
    with open(source.replace(".log", ".expected.json")) as f:
        want = len(json.load(f)["events"])
    assert len(blocks) > 3 and want > 3

    def trace_status(pred):
        st = None
        for _ in range(100):
            st = _app.request({"status": True})
            if st and pred(st["trace"]):
                return st["trace"]
            time.sleep(0.1)
        return st and st["trace"]

    log = tmp_path / "live.log"
    seen = []
    with tilescope.trace(path=str(log), echo=False, visualize=False) as t:
        proc = t.app  # no Tilescope ran: trace() started one, told to follow the log
        assert isinstance(proc, subprocess.Popen)
        st = trace_status(lambda tr: tr["source"] == str(log))
        seen.append(st)
        for b in blocks:  # the log grows while the block runs; the window reads it as it grows
            sys.stdout.write("".join(b))
            seen.append(trace_status(lambda tr: tr["events"] >= 1))
    try:
        assert seen[0]["source"] == str(log) and seen[0]["following"] and seen[0]["visible"]
        final = trace_status(lambda tr: tr["events"] >= want)
        assert final["events"] == want, final
        counts = [s["events"] for s in seen[1:]]
        assert counts == sorted(counts) and counts[0] < want, counts  # grew, not read at the end
        assert len(t.events()) == want

        # A second trace goes to the running window (an answer, not a new process).
        with tilescope.trace(path=str(tmp_path / "second.log"), echo=False,
                             visualize=False) as t2:
            print("A_local inferred layout:")
        assert t2.app == {"ok": True}
        assert trace_status(lambda tr: tr["source"] == str(tmp_path / "second.log"))
        assert _app.request({"trace": str(tmp_path / "none.log")}) == {
            "ok": False, "error": "no such log: %s" % (tmp_path / "none.log")}
    finally:
        proc.terminate()
        proc.wait(10)
