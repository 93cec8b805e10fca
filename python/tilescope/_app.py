# SPDX-License-Identifier: Apache-2.0
"""show(x) and open_trace(log): hand x / a log to the running Tilescope window over its local
socket, or start one with it.

The socket and its one-JSON-line protocol are the app's (app/gui/single_instance.h)."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from ._cli import TilescopeError
from ._text import to_text


def socket_path():
    env = os.environ.get("TILESCOPE_SOCKET")
    if env:
        return env
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, "tilescope.socket")
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


# How long a started Tilescope has to answer on its socket before show() returns anyway (it
# normally answers within a second), and how long one that will not listen (offscreen without
# TILESCOPE_SOCKET: single_instance.h) is watched for an early exit.
STARTUP_TIMEOUT = 15.0
EARLY_EXIT_GRACE = 1.5


def _no_display(caller, instead):
    """Why no window can open here, or None. Qt's default platform on Linux and the BSDs is X11 or
    Wayland; with neither DISPLAY nor WAYLAND_DISPLAY it cannot connect, prints a few lines and
    aborts, which a detached process would do unseen. QT_QPA_PLATFORM is the user's choice of
    another platform (offscreen, vnc, ...) and is left to Qt."""
    if sys.platform in ("darwin", "win32", "cygwin") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return ("%s: no display here (DISPLAY and WAYLAND_DISPLAY are unset), so the Tilescope window "
            "cannot open. %s Or run where a display is reachable (a desktop session, `ssh -X`, "
            "Xvfb with DISPLAY set); QT_QPA_PLATFORM=offscreen starts a window nobody sees, "
            "reachable only over its socket." % (caller, instead))


def _listens():
    """Whether the started app will answer on the socket (single_instance.h's
    singleInstanceWanted: not offscreen, or TILESCOPE_SOCKET set)."""
    if os.environ.get("TILESCOPE_SOCKET"):
        return True
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0]
    return platform != "offscreen"


def _describe_exit(code):
    if code < 0:
        try:
            return "was killed by %s" % signal.Signals(-code).name
        except ValueError:
            return "was killed by signal %d" % -code
    return "exited with code %d" % code


def _start(args, caller, instead):
    """Starts `tilescope ARGS` detached and returns its process once it is up: answering on the
    socket, or (when it will not listen) still running after a moment. A process that ends at
    start with an error raises TilescopeError with what it printed to stderr, rather than being
    handed back dead. An exit status of 0 is a hand-over to a window that started meanwhile."""
    problem = _no_display(caller, instead)
    if problem:
        raise TilescopeError(problem)
    app = find_app()
    # stderr goes to an unlinked file, not a pipe: the window outlives this call (and maybe this
    # Python), and a pipe nobody reads would block it once full, or kill it with SIGPIPE.
    err = tempfile.TemporaryFile()
    with err:
        try:
            proc = subprocess.Popen([app] + args, stdout=subprocess.DEVNULL, stderr=err,
                                    start_new_session=True)
        except OSError as e:
            raise TilescopeError("%s: cannot start %s: %s" % (caller, app, e))
        listens = _listens()
        deadline = time.monotonic() + (STARTUP_TIMEOUT if listens else EARLY_EXIT_GRACE)
        while True:
            code = proc.poll()
            if code is not None:
                if code == 0:
                    return proc
                err.seek(0)
                text = err.read().decode(errors="replace").strip()
                if len(text) > 4000:
                    text = "...\n" + text[-4000:]
                raise TilescopeError("%s: %s %s at start%s" % (
                    caller, app, _describe_exit(code),
                    (":\n" + text) if text else " (it printed nothing on stderr)"))
            if time.monotonic() >= deadline:
                return proc
            if listens:
                try:
                    if request({"status": True}, timeout=2.0) is not None:
                        return proc
                except (OSError, ValueError, TilescopeError):
                    pass  # listening but not answering yet
            time.sleep(0.05)


def show(x, name="from python"):
    """Opens x in the running Tilescope window as a new layout, or starts Tilescope with it.

    Returns the answer of the running window, or the started process once it is up. Raises
    TilescopeError where no window can open (no display), or when the started Tilescope ends at
    once with an error (with its stderr)."""
    text = to_text(x)
    answer = request({"text": text, "name": name})
    if answer is not None:
        if not answer.get("ok"):
            raise TilescopeError(answer.get("error", "the running Tilescope refused the layout"))
        return answer
    return _start(["--text", text, "--layout-name", name], "tilescope.show",
                  "Draw it without a window instead: tilescope.render(x) (inline in Jupyter; "
                  ".save('grid.svg') writes a file) or `tilescope-cli render SPEC -o grid.svg`.")


def open_trace(path, follow=True):
    """Opens the log at path in the running Tilescope's Trace panel (reading on as it grows when
    follow), or starts Tilescope with it. Returns the window's answer or the started process; raises
    TilescopeError as show() does."""
    path = os.path.abspath(path)
    answer = request({"trace": path, "follow": bool(follow)})
    if answer is not None:
        if not answer.get("ok"):
            raise TilescopeError(answer.get("error", "the running Tilescope refused the log"))
        return answer
    return _start(["--trace", path] + (["--follow"] if follow else []), "tilescope.open_trace",
                  "Capture without a window instead: tilescope.trace(show=False) (its "
                  ".events() lists what the panel would show), or `tilescope-cli import-dump LOG`.")
