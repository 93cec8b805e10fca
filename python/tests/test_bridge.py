# SPDX-License-Identifier: Apache-2.0
"""The Python bridge against the real tilescope-cli (TILESCOPE_CLI) and, for show(), the real
tilescope GUI (TILESCOPE_BIN) offscreen on a private socket."""

import os
import stat
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import tilescope  # noqa: E402
from tilescope import _app  # noqa: E402

FRAG = ("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
        "forward_index_fn=lambda i, j: j % 2)")
TRANSPOSE = "T.Layout([4, 8], lambda i, j: (j, i))"


def test_render_svg_is_jupyter_displayable():
    r = tilescope.render(FRAG)
    svg = r._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert ">T31<" in svg and ">T32<" not in svg  # 32 threads, T0..T31
    assert r._repr_png_() is None


def test_render_png_and_options():
    r = tilescope.render(FRAG, fmt="png", cell=20, legend=False, title=False)
    png = r._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    small = tilescope.render(FRAG, fmt="png", cell=10, legend=False, title=False)._repr_png_()
    width = int.from_bytes(png[16:20], "big")
    assert width > int.from_bytes(small[16:20], "big")  # --cell reached the CLI
    assert r._repr_svg_() is None


def test_table_is_the_cli_json():
    t = tilescope.table(TRANSPOSE)
    assert t["kind"] == "layout"
    assert t["input_shape"] == [4, 8] and t["output_shape"] == [8, 4]
    cells = {tuple(c["in"]): tuple(c["out"]) for c in t["cells"]}
    assert cells[(1, 3)] == (3, 1) and len(cells) == 32


def test_banks_is_the_cli_json():
    b = tilescope.banks("T.Layout([32, 32], lambda i, j: (i, j))", dtype="float32",
                        access="lanes:lambda t: (t, 0)")
    # 32 lanes reading one column of a row-major 32x32 float32 tile: all in bank 0.
    assert b["total"]["wavefronts"] == 32, b


def test_cli_errors_raise_with_the_cli_message():
    with pytest.raises(tilescope.TilescopeError, match="column"):
        tilescope.table("T.Layout([4, 8], lambda i, j: (j i))")


def test_missing_cli_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("TILESCOPE_CLI", str(tmp_path / "nope"))
    with pytest.raises(tilescope.TilescopeError, match="TILESCOPE_CLI"):
        tilescope.table(TRANSPOSE)
    monkeypatch.delenv("TILESCOPE_CLI")
    monkeypatch.delenv("TILESCOPE_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(tilescope.TilescopeError, match="not found"):
        tilescope.table(TRANSPOSE)


def test_bad_inputs():
    with pytest.raises(TypeError):
        tilescope.render(42)
    with pytest.raises(ValueError):
        tilescope.render(FRAG, fmt="gif")


@pytest.mark.skipif(not os.environ.get("TILESCOPE_BIN"), reason="TILESCOPE_BIN not set")
def test_show_starts_then_hands_to_the_running_window(tmp_path, monkeypatch):
    monkeypatch.setenv("TILESCOPE_SOCKET", str(tmp_path / "s.socket"))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setenv("TILESCOPE_NO_DIALOGS", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TILESCOPE_RECOVERY_DIR", str(tmp_path / "rec"))
    assert _app.request({"status": True}) is None  # nothing runs yet
    proc = tilescope.show(FRAG, name="first")  # starts Tilescope with the layout
    assert isinstance(proc, subprocess.Popen)
    try:
        st = None
        for _ in range(200):
            st = _app.request({"status": True})
            if st:
                break
            time.sleep(0.1)
        assert st and st["ok"], "the started Tilescope never answered"
        assert st["text"] == FRAG and st["layouts"][st["active"]] == "first"
        answer = tilescope.show(TRANSPOSE, name="second")  # handed to the running window
        assert answer["ok"]
        st = _app.request({"status": True})
        assert st["layouts"][st["active"]] == "second" and st["text"] == TRANSPOSE
        assert _app.request({"text": "  "}) == {"ok": False, "error": "empty layout text"}
    finally:
        proc.terminate()
        proc.wait(10)


def fake_app(tmp_path, script):
    """A stand-in for the tilescope program (TILESCOPE_BIN): a shell script that first records
    that it was started."""
    app = tmp_path / "fake-tilescope"
    app.write_text("#!/bin/sh\necho started >> %s\n%s\n" % (tmp_path / "started", script))
    app.chmod(app.stat().st_mode | stat.S_IXUSR)
    return str(app)


@pytest.fixture
def no_window_yet(tmp_path, monkeypatch):
    """A private socket nobody listens on, so that show() has to start the app."""
    monkeypatch.setenv("TILESCOPE_SOCKET", str(tmp_path / "s.socket"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TILESCOPE_RECOVERY_DIR", str(tmp_path / "rec"))
    monkeypatch.setenv("TILESCOPE_NO_DIALOGS", "1")


def test_show_without_a_display_raises_and_starts_nothing(tmp_path, monkeypatch, no_window_yet):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TILESCOPE_BIN", fake_app(tmp_path, "sleep 30"))
    with pytest.raises(tilescope.TilescopeError) as e:
        tilescope.show(FRAG)
    msg = str(e.value)
    assert msg.startswith("tilescope.show: no display here"), msg
    assert "DISPLAY and WAYLAND_DISPLAY are unset" in msg
    assert "tilescope.render(x)" in msg and "tilescope-cli render" in msg  # what to do instead
    assert "QT_QPA_PLATFORM=offscreen" in msg
    with pytest.raises(tilescope.TilescopeError, match="open_trace: no display.*show=False"):
        tilescope.open_trace(str(tmp_path / "t.log"))
    assert not (tmp_path / "started").exists()  # refused before anything was started
    # A platform chosen by the user is left to Qt: the app is started.
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("TILESCOPE_SOCKET")  # offscreen without a socket: it will not listen
    proc = tilescope.show(FRAG)
    try:
        assert proc.poll() is None  # running, handed back after the early-exit grace
        assert (tmp_path / "started").read_text() == "started\n"
    finally:
        proc.kill()
        proc.wait(10)


def free_x_display():
    """An X display number no server listens on here."""
    for n in range(4711, 4811):
        if not os.path.exists("/tmp/.X11-unix/X%d" % n) and not os.path.exists("/tmp/.X%d-lock" % n):
            return ":%d" % n
    raise AssertionError("no free X display number in :4711-:4810")


@pytest.mark.skipif(not os.environ.get("TILESCOPE_BIN"), reason="TILESCOPE_BIN not set")
def test_show_raises_with_the_stderr_of_a_real_app_that_cannot_start(monkeypatch, no_window_yet):
    # DISPLAY names a display with no X server: the real Tilescope's Qt cannot connect and
    # aborts at start. show() must raise with what it printed, not return a dead process.
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    display = free_x_display()
    monkeypatch.setenv("DISPLAY", display)
    t0 = time.monotonic()
    with pytest.raises(tilescope.TilescopeError) as e:
        tilescope.show(FRAG)
    msg = str(e.value)
    assert "tilescope.show: " in msg and "at start:" in msg, msg
    assert "was killed by SIGABRT" in msg, msg
    assert "could not connect to display %s" % display in msg, msg
    assert time.monotonic() - t0 < 10  # the exit was noticed, not waited out


def test_show_raises_with_the_stderr_of_an_app_that_exits_with_an_error(tmp_path, monkeypatch,
                                                                       no_window_yet):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setenv("TILESCOPE_BIN", fake_app(
        tmp_path, "echo 'tilescope: cannot read the settings' >&2\nexit 3"))
    with pytest.raises(tilescope.TilescopeError,
                       match=r"exited with code 3 at start:\ntilescope: cannot read the settings$"):
        tilescope.show(FRAG)
    monkeypatch.setenv("TILESCOPE_BIN", fake_app(tmp_path, "exit 4"))
    with pytest.raises(tilescope.TilescopeError,
                       match=r"exited with code 4 at start \(it printed nothing on stderr\)"):
        tilescope.open_trace(str(tmp_path / "t.log"))
    # Exit 0 at start is the app handing the request to a window that started meanwhile.
    monkeypatch.setenv("TILESCOPE_BIN", fake_app(tmp_path, "echo handed over; exit 0"))
    proc = tilescope.show(FRAG)
    assert proc.returncode == 0
    assert (tmp_path / "started").read_text().count("started") == 3
