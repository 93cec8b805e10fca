# SPDX-License-Identifier: Apache-2.0
"""Mapping-language text for what the user passes: TileLang objects become T.Layout/T.Fragment
calls built from their own expressions, so what Tilescope draws is the object itself; the CuTe
objects of TileLang's CuTe bridge (tilelang.layout.cute) become the CuTe text they print, which
Tilescope reads as CuTe layout text."""

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_VARS = {"T", "and", "or", "not", "if", "else", "True", "False", "min", "max"}


def _is_tilelang(x, name, module="tilelang"):
    return any(c.__name__ == name and c.__module__.startswith(module)
               for c in type(x).__mro__)


# TileLang's CuTe bridge names its classes Layout and ComposedLayout too, with nothing of
# TileLang's Layout API (no get_forward_vars): they are told apart by module.
_CUTE = "tilelang.layout.cute"


def _is_cute(x, name):
    return _is_tilelang(x, name, _CUTE)


def _symbolic(t):
    """The first leaf of a CuTe shape/stride (as tilelang.layout.cute.to_python unpacks it) that
    is not a constant: a PrimExpr (a dynamic extent), or None when every leaf is an int."""
    if isinstance(t, tuple):
        for c in t:
            found = _symbolic(c)
            if found is not None:
                return found
        return None
    if isinstance(t, int):
        return None
    value = getattr(t, "value", None)  # a ScaledBasis d@k: d may itself be dynamic
    if value is not None and type(t).__name__ == "ScaledBasis":
        return _symbolic(value)
    return t


def _cute_text(x, layout):
    """x's own print (`(4,8):(1,4)`, `(4,8):(1@1,1@0)`, `Sw<3,3,3> o 0 o (8,64):(64,1)`), which
    is CuTe layout text; layout is x's (inner) Layout. A dynamic extent has no grid to draw, so it
    is refused here rather than as a parse error about a name in the text."""
    for what, t in (("shape", layout.shape), ("stride", layout.stride)):
        sym = _symbolic(t)
        if sym is not None:
            raise ValueError("tilescope: the CuTe %s %s has a symbolic %s (%s): only layouts with "
                             "constant shapes and strides can be drawn"
                             % (type(x).__name__, x, what, sym))
    return str(x)


def _shape(values):
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _tuple(exprs):
    items = [str(e) for e in exprs]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def to_text(x):
    """Layout text for x: a TileLang Layout or Fragment, a CuTe Layout or ComposedLayout of
    TileLang's CuTe bridge, or text (returned as is)."""
    if isinstance(x, str):
        if not x.strip():
            raise ValueError("empty layout text")
        return x
    if _is_cute(x, "Layout"):
        return _cute_text(x, x)
    if _is_cute(x, "ComposedLayout"):
        return _cute_text(x, x.layout)
    if _is_tilelang(x, "Fragment"):
        shape = list(x.get_input_shape())
        names = [str(v) for v in x.get_forward_vars()]
        thread = str(x.forward_thread)
        rep = int(x.replicate_size)
        rep_var = None
        if rep > 1:
            # TileLang lists the replica variable with the index variables (first, as "_rep");
            # failing that it is the one name in forward_thread that is not an index variable.
            rep_var = next((n for n in names if "rep" in n), None)
            if rep_var is None:
                extra = [n for n in dict.fromkeys(_IDENT.findall(thread))
                         if n not in names and n not in _NOT_VARS]
                rep_var = extra[0] if len(extra) == 1 else None
            if rep_var is None:
                raise ValueError("cannot tell the replica variable of %r" % (x,))
        index_vars = [n for n in names if n != rep_var]
        if len(index_vars) != len(shape):
            raise ValueError("%r: %d index variables for a %d-d shape"
                             % (x, len(index_vars), len(shape)))
        params = ", ".join(index_vars)
        thread_params = params + (", " + rep_var if rep_var else "")
        return ("T.Fragment(%s, forward_thread_fn=lambda %s: %s, forward_index_fn=lambda %s: %s%s)"
                % (_shape(shape), thread_params, thread, params,
                   _tuple(x.get_forward_index()), ", replicate=%d" % rep if rep > 1 else ""))
    if _is_tilelang(x, "Layout"):
        params = ", ".join(str(v) for v in x.get_forward_vars())
        return "T.Layout(%s, lambda %s: %s)" % (_shape(x.get_input_shape()), params,
                                               _tuple(x.get_forward_index()))
    kind = type(x).__name__
    if type(x).__module__ != "builtins":
        kind = type(x).__module__ + "." + kind
    raise TypeError("tilescope: cannot show an object of type %s (give a TileLang Layout/Fragment, a CuTe "
                    "Layout/ComposedLayout of tilelang.layout.cute, or layout text)" % kind)
