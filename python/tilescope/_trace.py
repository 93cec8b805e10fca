# SPDX-License-Identifier: Apache-2.0
"""trace(): what TileLang prints while it compiles, captured into a log that the Tilescope window
follows live in its Trace panel.

TileLang prints inferred fragment layouts from its layout-visualization pass with Python's print
(sys.stdout), TVM's C++ logs to file descriptor 2, and a layout conflict ends the compile as a
Python exception. So, for the block: the pass is turned on, sys.stdout/sys.stderr and the file
descriptors 1 and 2 all feed one pipe (one stream in write order, as a compiler log reads), a
thread copies the pipe into the log and echoes it to the user's stderr, and an exception leaving
the block is appended to the log as its traceback (then re-raised)."""

import ctypes
import io
import os
import sys
import tempfile
import threading
import traceback

VISUALIZATION_KEY = "tl.layout_visualization_enable"


class _PipeWriter(io.TextIOBase):
    """sys.stdout/sys.stderr during the block: text straight into the pipe (no buffering, so the
    log grows as TileLang prints, and Python's text stays in order with the C++ side's)."""

    def __init__(self, fd, encoding="utf-8"):
        super().__init__()
        self._fd = fd
        self._encoding = encoding
        self.buffer = _PipeBytes(fd)

    @property
    def encoding(self):
        return self._encoding

    def writable(self):
        return True

    def write(self, s):
        self.buffer.write(s.encode(self._encoding, errors="replace"))
        return len(s)

    def fileno(self):
        return self._fd

    def isatty(self):
        return False


class _PipeBytes:
    def __init__(self, fd):
        self._fd = fd

    def write(self, b):
        view = memoryview(b)
        while view:
            view = view[os.write(self._fd, view):]
        return len(b)

    def flush(self):
        pass


def _flush_c_stdio():
    # printf output of C/C++ code sits in libc's buffer for fd 1 until flushed.
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


def _flush_python(*streams):
    for s in streams:
        try:
            s.flush()
        except (AttributeError, ValueError, OSError):
            pass


class Trace:
    """Context manager: ``with tilescope.trace(): tilelang.lower(func, target=...)``.

    path     the log to write (default: a new file in the temp directory); it is truncated.
    show     open the log in the running Tilescope's Trace panel, following it, or start one
             with it (as show() does). Raises TilescopeError before the block if neither works.
    echo     copy everything captured to the stderr the block started with.
    visualize  turn on TileLang's layout-visualization pass (tl.layout_visualization_enable) in
             every PassContext made during the block and in one entered around it, and turn
             TileLang's kernel cache off for the block (a cached kernel is not lowered again, so
             it would print nothing). Without TileLang this only captures.

    After the block: .path is the log, .text() its contents, .events() the events
    `tilescope-cli import-dump` finds in it, .app what show() returned (or None)."""

    def __init__(self, path=None, show=True, echo=True, visualize=True):
        self.path = os.path.abspath(path) if path else None
        self.show = show
        self.echo = echo
        self.visualize = visualize
        self.app = None
        self.tilelang_enabled = False
        self._lock = threading.Lock()
        self._active = False

    # ---- the block

    def __enter__(self):
        if self._active:
            raise RuntimeError("tilescope.trace() is already active")
        if self.path is None:
            fd, self.path = tempfile.mkstemp(prefix="tilescope-trace-", suffix=".log")
            os.close(fd)
        self._log = open(self.path, "wb", buffering=0)
        self._holders = 1
        self._echo_fd = None
        try:
            if self.show:
                from ._app import open_trace
                self.app = open_trace(self.path, follow=True)
            if self.visualize:
                self._enable_tilelang()
            self._start_capture()
        except BaseException:
            self._disable_tilelang()
            self._release()
            raise
        self._active = True
        return self

    def __exit__(self, etype, value, tb):
        self._active = False
        try:
            self._stop_capture()
        finally:
            self._disable_tilelang()
            if value is not None:
                # A layout conflict ends the compile as an exception: its message is the part of
                # the log the Trace panel shows as the conflict. Python prints it again for the
                # user when the exception goes on, so it is not echoed here.
                text = "".join(traceback.format_exception(etype, value, tb))
                self._write_log(text.encode("utf-8", errors="replace"))
            self._release()
        return False

    def _release(self):
        # The block and the copying thread both hold the log (and the echo descriptor): whichever
        # finishes last closes them.
        with self._lock:
            self._holders -= 1
            if self._holders:
                return
            self._log.close()
            if self._echo_fd is not None:
                os.close(self._echo_fd)
                self._echo_fd = None

    # ---- capture

    def _start_capture(self):
        _flush_python(sys.stdout, sys.stderr)
        _flush_c_stdio()
        self._echo_fd = None
        self._echo_stream = None
        if self.echo:
            try:
                fd_backed = sys.stderr.fileno() == 2
            except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
                fd_backed = False
            # Jupyter's sys.stderr is not fd 2: echo through the object so it reaches the cell.
            if not fd_backed and sys.stderr is not None:
                self._echo_stream = sys.stderr
        read_fd, self._write_fd = os.pipe()
        self._saved_fds = {fd: os.dup(fd) for fd in (1, 2)}
        if self.echo and self._echo_stream is None:
            self._echo_fd = self._saved_fds[2]
        os.dup2(self._write_fd, 1)
        os.dup2(self._write_fd, 2)
        self._saved_streams = (sys.stdout, sys.stderr)
        # UTF-8 whatever the terminal's encoding: the log is read as UTF-8.
        sys.stdout = _PipeWriter(self._write_fd)
        sys.stderr = _PipeWriter(self._write_fd)
        self._holders = 2  # the block and the copying thread
        self._pump = threading.Thread(target=self._copy, args=(read_fd,),
                                      name="tilescope-trace", daemon=True)
        self._pump.start()

    def _stop_capture(self):
        _flush_python(sys.stdout, sys.stderr)
        _flush_c_stdio()
        sys.stdout, sys.stderr = self._saved_streams
        for fd, saved in self._saved_fds.items():
            os.dup2(saved, fd)
        os.close(self._write_fd)
        # The pipe ends when every writer is gone; a child process the block started and left
        # running would keep it open, so the thread is waited for only briefly and otherwise
        # keeps copying until that child exits.
        self._pump.join(timeout=5.0)
        for saved in self._saved_fds.values():
            if saved != self._echo_fd:
                os.close(saved)

    def _copy(self, read_fd):
        try:
            while True:
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    break
                self._write_log(chunk)
                self._echo(chunk)
        finally:
            os.close(read_fd)
            self._release()

    def _echo(self, chunk):
        try:
            if self._echo_fd is not None:
                view = memoryview(chunk)
                while view:
                    view = view[os.write(self._echo_fd, view):]
            elif self._echo_stream is not None:
                self._echo_stream.write(chunk.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass  # the user's stderr is gone: the log still gets everything

    def _write_log(self, data):
        with self._lock:
            if not self._log.closed:
                self._log.write(data)

    # ---- TileLang

    def _enable_tilelang(self):
        self._patched = None
        try:
            import tilelang
            from tilelang import tvm
        except ImportError:
            return
        pc_class = tvm.transform.PassContext
        original_init = pc_class.__init__

        def init(pc, *args, **kwargs):
            # PassContext(opt_level, required_pass, disabled_pass, instruments, config): the
            # key is added where the caller did not set it (an explicit False stays False).
            args = list(args)
            if len(args) >= 5:
                args[4] = dict(args[4] or {})
                args[4].setdefault(VISUALIZATION_KEY, True)
            else:
                cfg = dict(kwargs.get("config") or {})
                cfg.setdefault(VISUALIZATION_KEY, True)
                kwargs["config"] = cfg
            original_init(pc, *args, **kwargs)

        pc_class.__init__ = init
        self._patched = (pc_class, original_init)
        # tilelang.lower() runs in the current PassContext rather than making one.
        cur = pc_class.current()
        self._context = pc_class(cur.opt_level, list(cur.required_pass), list(cur.disabled_pass),
                                 list(cur.instruments), dict(cur.config))
        self._context.__enter__()
        self._cache_was_on = bool(tilelang.is_cache_enabled())
        if self._cache_was_on:
            tilelang.disable_cache()
        self._tilelang = tilelang
        self.tilelang_enabled = True

    def _disable_tilelang(self):
        patched = getattr(self, "_patched", None)
        if not patched:
            return
        self._patched = None
        pc_class, original_init = patched
        pc_class.__init__ = original_init
        self._context.__exit__(None, None, None)
        if self._cache_was_on:
            self._tilelang.enable_cache()

    # ---- after the block

    def text(self):
        """The log's contents (str)."""
        with open(self.path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def events(self):
        """The events `tilescope-cli import-dump --json` finds in the log (a list of dicts)."""
        import json

        from ._cli import _run
        return json.loads(_run(["import-dump", self.path, "--json"]))["events"]

    def __repr__(self):
        return "<tilescope.trace %s>" % self.path


def trace(path=None, show=True, echo=True, visualize=True):
    """``with tilescope.trace(): tilelang.lower(...)``: see Trace."""
    return Trace(path=path, show=show, echo=echo, visualize=visualize)
