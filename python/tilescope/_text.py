# SPDX-License-Identifier: Apache-2.0
"""Mapping-language text for what the user passes: TileLang objects become T.Layout/T.Fragment
calls built from their own expressions, so what Tilescope draws is the object itself."""

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_VARS = {"T", "and", "or", "not", "if", "else", "True", "False", "min", "max"}


def _is_tilelang(x, name):
    return any(c.__name__ == name and c.__module__.startswith("tilelang")
               for c in type(x).__mro__)


def _shape(values):
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _tuple(exprs):
    items = [str(e) for e in exprs]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def to_text(x):
    """Mapping-language text for x: a TileLang Layout or Fragment, or text (returned as is)."""
    if isinstance(x, str):
        if not x.strip():
            raise ValueError("empty layout text")
        return x
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
    raise TypeError("tilescope: cannot show a %s (give a TileLang Layout/Fragment or "
                    "mapping-language text)" % type(x).__name__)
