# SPDX-License-Identifier: Apache-2.0
"""show(x) and open_trace(log): hand x / a log to the running Tilescope window over its local
socket, or start one with it.

The socket and its one-JSON-line protocol are the app's (app/gui/single_instance.h)."""

import json
import os
import shutil
import socket
import subprocess

from ._cli import TilescopeError
from ._text import to_text


def socket_path():
    env = os.environ.get("TILESCOPE_SOCKET")
    if env:
        return env
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, "tilescope.socket")
    import tempfile
    return os.path.join(tempfile.gettempdir(), "tilescope-%d.socket" % os.getuid())


def request(obj, timeout=10.0):
    """Sends one request to the running Tilescope; its answer (a dict), or None if none runs."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(socket_path())
    except OSError:
        s.close()
        return None
    with s:
        s.sendall(json.dumps(obj).encode() + b"\n")
        data = b""
        while b"\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    if not data:
        raise TilescopeError("the running Tilescope closed the connection without answering")
    return json.loads(data.decode())


def find_app():
    env = os.environ.get("TILESCOPE_BIN")
    if env:
        return env
    found = shutil.which("tilescope")
    if not found:
        raise TilescopeError("tilescope not found: install Tilescope or set TILESCOPE_BIN")
    return found


def show(x, name="from python"):
    """Opens x in the running Tilescope window as a new layout, or starts Tilescope with it.

    Returns the answer of the running window, or the started process."""
    text = to_text(x)
    answer = request({"text": text, "name": name})
    if answer is not None:
        if not answer.get("ok"):
            raise TilescopeError(answer.get("error", "the running Tilescope refused the layout"))
        return answer
    return subprocess.Popen([find_app(), "--text", text, "--layout-name", name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def open_trace(path, follow=True):
    """Opens the log at path in the running Tilescope's Trace panel (reading on as it grows when
    follow), or starts Tilescope with it. Returns the window's answer or the started process."""
    path = os.path.abspath(path)
    answer = request({"trace": path, "follow": bool(follow)})
    if answer is not None:
        if not answer.get("ok"):
            raise TilescopeError(answer.get("error", "the running Tilescope refused the log"))
        return answer
    return subprocess.Popen([find_app(), "--trace", path] + (["--follow"] if follow else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
