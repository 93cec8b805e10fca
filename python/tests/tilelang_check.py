# SPDX-License-Identifier: Apache-2.0
"""Real TileLang objects through the bridge: run by the .venv's Python that imports tilelang
(tests/package/CMakeLists.txt), with TILESCOPE_CLI set. Exits non-zero on any mismatch."""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import tilelang.language as T  # noqa: E402
import tilelang.layout.cute as C  # noqa: E402

import tilescope  # noqa: E402


def cells_of(t):
    return {tuple(c["in"]): c for c in t["cells"]}


def check_cute(x):
    """x (a tilelang.layout.cute Layout) through the bridge: Tilescope's table must have one axis
    per top-level mode of x and, in every cell, the value x itself computes for that coordinate
    (its CuTe crd2idx: an offset, or a tuple for basis strides). Returns the number of cells."""
    text = tilescope.to_text(x)
    t = tilescope.table(x)
    r = C.rank(x)
    assert t["input_shape"] == [C.size(x[i]) for i in range(r)], (text, t["input_shape"])
    cells = cells_of(t)
    assert len(cells) == C.size(x), (text, len(cells))
    for coord, c in cells.items():
        # A nested basis stride d@i@j gives a nested tuple; Tilescope's output axes are its
        # leaves in order.
        want = list(C.flatten_to_tuple(x(coord if r > 1 else coord[0])))
        assert c["out"] == want, (text, coord, c["out"], want)
    return len(cells)


def random_mode(rng, depth):
    """A random (shape, stride) mode: a leaf, or a tuple of modes (CuTe's hierarchy)."""
    if depth == 0 or rng.random() < 0.6:
        return rng.randint(1, 6), rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 7])
    sub = [random_mode(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    return tuple(m[0] for m in sub), tuple(m[1] for m in sub)


def cute_layouts():
    """TileLang's CuTe-bridge layouts as users make them: its make functions, its layout algebra,
    basis strides, and seeded random hierarchical shapes/strides."""
    a = C.make_layout(((2, 4), 8), ((1, 16), 2))
    fixed = [
        C.make_layout((4, 8)), C.make_layout((4, 8), (8, 1)), a, C.make_layout(32, 2),
        C.make_row_major_layout((2, 3, 4)), C.make_column_major_layout((4, (2, 3))),
        C.make_layout((4, 8), (0, 1)), C.make_identity_layout((4, 8)),
        C.make_layout((4, 8), (C.E(1), C.E(0) * 2)), C.make_layout(((2, 2), 8), ((C.E(0), C.E(1)), C.E(0) * 2)),
        C.composition(a, C.make_layout(8, 2)), C.logical_divide(a, C.make_layout(4, 1)),
        C.logical_product(C.make_layout((2, 2), (1, 2)), C.make_layout(4, 1)),
        C.blocked_product(C.make_layout((2, 2), (1, 2)), C.make_layout((2, 3))),
        C.tiled_product(C.make_layout((2, 2), (1, 2)), C.make_layout((2, 3))),
        C.coalesce(a), C.right_inverse(a), C.complement(C.make_layout(4, 2), 32),
        C.make_layout((C.make_layout(4, 1), C.make_layout(8, 4))),
        # Nested basis strides: an output mode that is itself a tuple.
        C.make_layout((4, (2, 3)), (C.E((1, 0)), (C.E((1, 1)), C.E(0)))),
        C.make_layout((2, 3), (C.E((0, 1)), C.E((0, 0)))),
    ]
    rng = random.Random(26)
    rand = []
    while len(rand) < 60:
        shape, stride = random_mode(rng, 2)
        if not isinstance(shape, tuple):
            shape, stride = (shape,), (stride,)
        x = C.make_layout(shape, stride)
        if C.size(x) <= 4096:
            rand.append(x)
    return fixed + rand


def check_cute_bridge():
    n = sum(check_cute(x) for x in cute_layouts())
    # A ComposedLayout (swizzle o offset o layout) has no evaluation of its own in TileLang's
    # bridge: it is checked against the TileLang layout it was read from.
    lay = T.Layout([8, 64], lambda i, j: (i * 64 + (j ^ ((i % 8) * 8)),))
    composed = C.ComposedLayout.from_tilelang(lay)
    assert tilescope.to_text(composed) == "Sw<3,3,3> o 0 o (8,64):(64,1)", composed
    for (i, j), c in cells_of(tilescope.table(composed)).items():
        assert c["out"] == [int(v) for v in lay.map_forward_index([i, j])], (composed, c)
    # Refused by name: a dynamic extent, and CuTe objects that are not layouts.
    try:
        tilescope.to_text(C.make_layout((T.dynamic("n"), 8)))
        raise AssertionError("a symbolic shape was accepted")
    except ValueError as e:
        assert "symbolic shape (n)" in str(e), e
    for other in (C.Swizzle.parse("Sw<3,3,3>"), C.from_python((4, 8))):
        try:
            tilescope.to_text(other)
            raise AssertionError("%r was accepted" % (other,))
        except TypeError as e:
            assert "tilelang.layout.cute." + type(other).__name__ in str(e), e
    # Basis strides making one output mode both a tuple (1@0@1) and an integer (1@1): TileLang
    # cannot evaluate it, and the core refuses it with its reason, through the bridge's error.
    bad = C.make_layout((4, (2, 3)), (C.E((1, 0)), (C.E(0) * 4, C.E(1))))
    try:
        bad((3, 5))
        raise AssertionError("TileLang evaluated %s" % bad)
    except AssertionError:
        raise
    except Exception as e:  # TVM's InternalError
        assert "Cannot add" in str(e), e
    try:
        tilescope.table(bad)
        raise AssertionError("%s was accepted" % bad)
    except tilescope.TilescopeError as e:
        assert "basis stride" in str(e) and "column" in str(e), e
    return n


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
    n = check_cute_bridge()
    print("tilelang bridge: Layout %s, Fragment %s, replicated Fragment %s: OK; CuTe-bridge "
          "layouts: %d cells equal to their own crd2idx" % (tilescope.to_text(lay), text,
                                                          tilescope.to_text(rep), n))


main()
