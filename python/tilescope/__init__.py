# SPDX-License-Identifier: Apache-2.0
"""Tilescope from Python and Jupyter.

render(x) draws a layout with ``tilescope-cli render`` and returns an object Jupyter shows inline;
table(x) and banks(x, ...) return the CLI's JSON as Python objects; show(x) opens x in the running
Tilescope window (or starts one). x is a TileLang Layout/Fragment or mapping-language text.
``with trace(): tilelang.lower(...)`` streams TileLang's inferred layouts and layout conflicts
into the window's Trace panel as they are printed.
"""

from ._app import open_trace, show
from ._cli import TilescopeError, banks, find_cli, render, table, Rendered
from ._text import to_text
from ._trace import Trace, trace

__all__ = ["show", "trace", "Trace", "open_trace", "render", "table", "banks", "to_text",
           "find_cli", "Rendered", "TilescopeError"]
__version__ = "0.1.0"
