# SPDX-License-Identifier: Apache-2.0
"""Real TileLang objects through the bridge: run by the .venv's Python that imports tilelang
(tests/package/CMakeLists.txt), with TILESCOPE_CLI set. Exits non-zero on any mismatch."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import tilelang.language as T  # noqa: E402

import tilescope  # noqa: E402


def cells_of(t):
    return {tuple(c["in"]): c for c in t["cells"]}


def main():
    lay = T.Layout([4, 8], lambda i, j: (j, i))
    text = tilescope.to_text(lay)
    t = tilescope.table(lay)
    assert t["input_shape"] == [4, 8] and t["output_shape"] == [8, 4], (text, t)
    for (i, j), c in cells_of(t).items():
        assert c["out"] == [j, i], (text, c)
        assert tuple(int(v) for v in lay.map_forward_index([i, j])) == (j, i)

    frag = T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2,
                      forward_index_fn=lambda i, j: j % 2)
    text = tilescope.to_text(frag)
    t = tilescope.table(frag)
    n = 0
    for (i, j), c in cells_of(t).items():
        want_thread = 4 * i + j // 2
        assert c["threads"] == [want_thread] and c["local"] == j % 2, (text, c)
        n += 1
    assert n == 64
    svg = tilescope.render(frag)._repr_svg_()
    assert ">T31<" in svg

    rep = T.Fragment([4, 4], forward_thread_fn=lambda i, j, rep: i * 4 + j + rep * 16,
                     forward_index_fn=lambda i, j: 0, replicate=2)
    t = tilescope.table(rep)
    assert t["kind"] == "fragment" and t["replicate"] == 2, t
    for (i, j), c in cells_of(t).items():
        assert sorted(c["threads"]) == [i * 4 + j, i * 4 + j + 16], (tilescope.to_text(rep), c)
    print("tilelang bridge: Layout %s, Fragment %s, replicated Fragment %s: OK"
          % (tilescope.to_text(lay), text, tilescope.to_text(rep)))


main()
