# SPDX-License-Identifier: Apache-2.0
"""The Python bridge against the real tilescope-cli (TILESCOPE_CLI) and, for show(), the real
tilescope GUI (TILESCOPE_BIN) offscreen on a private socket."""

import os
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
