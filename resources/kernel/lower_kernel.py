#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lower one TileLang kernel for CUDA and describe it, for Tilescope's kernel X-ray.

    python lower_kernel.py FILE.py [--function NAME] [--arch sm_80|sm_90|...]

FILE.py is loaded as a module (its directory first on sys.path; its `if __name__ == "__main__"`
block does not run). The kernel is the module-level object NAME, or by default the last module-level
PrimFunc (failing that, the last tilelang.jit object). NAME may also be a tilelang.jit function
(JITImpl: its get_tir() with no arguments, and its pass_configs), a compiled JITKernel (its
prim_func), or a callable taking no arguments that returns a PrimFunc.

The kernel is lowered as tilelang.jit lowers it (PassContext(opt_level=3, config=the JIT's
pass_configs) inside the target {"kind": "cuda", "arch": ARCH}), with TileLang's layout-visualization
pass turned on in every PassContext made meanwhile (tl.layout_visualization_enable, as
python/tilescope/_trace.py does it) and the kernel cache off. Everything printed from the module's
import to the end of lowering, by Python or by C++ on file descriptors 1 and 2, goes into "log".
No GPU is needed: nothing is compiled for the device.

stdout gets exactly one line:
    TILESCOPE_KERNEL_JSON {"tilelang_version", "source", "function", "arch", "lower_seconds",
                           "kernel_source", "log", "kernels": [...], "layouts": [...]}
where each kernel (one per __global__ function of kernel_source, in the order of the device module) is
    {"name", "grid": [x, y, z], "block": [x, y, z], "dynamic_smem_bytes", "static_smem_bytes",
     "launch_bounds": [max_threads, min_blocks] or null, "cluster": [x, y, z] or null,
     "cooperative": bool,
     "params": [{"name", "kind": "buffer", "ctype", "dtype", "shape": [int or null, ...]},
                {"name", "kind": "scalar", "ctype", "dtype"},
                {"name", "kind": "tma_descriptor", "ctype", "tensor", "tma": {...}}, ...],
     "checks": [strings: any disagreement between the launch configuration and the source]}
with params in the order of the __global__ signature in kernel_source (TileLang 0.1.15 sorts them by
name there, not in the PrimFunc's order). A grid or block extent that is not a constant (a symbolic
shape) is null, and then "grid_expr" and "block_expr" give all three extents as TVM prints them. The dynamic shared memory size is what TileLang's own
launcher passes (the device function's dyn_shared_memory_buf attribute); a kernel that asks for more
than 48 KiB needs cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)
before the launch, as TileLang's launcher does. A tma_descriptor parameter is a CUtensorMap passed by
value (__grid_constant__): "tma" holds the arguments TileLang's host code gives
cuTensorMapEncodeTiled (CUtensorMap enum values as integers; global_stride_bytes without the
innermost stride, as cuTensorMapEncodeTiled takes it) and "tensor" the buffer parameter it describes.

"layouts" lists the layout map that tl.LayoutInference inferred, read from the IR right after that
pass (so a pipelined shared buffer has its stage dimension in front, e.g. (3, 128, 32)): one entry per
shared or fragment buffer,
    {"buffer", "scope", "dtype", "shape", "kind": "layout"|"fragment", "text": TileLang's repr,
     "input_shape", "output_shape", "forward_vars", "forward_index": [expr...],
     fragments also "forward_thread", "replicate", "thread_range": [min, extent]}
with expressions as TVM prints them (_i // 8, _j % 2, ...). A layout's physical offset is the
row-major flattening of forward_index over output_shape. If reading the map fails the lowering
still succeeds, "layouts" is empty and "layouts_error" says why.

On failure stdout gets one line `TILESCOPE_KERNEL_ERROR <message>`, the captured log goes to stderr,
and the exit status is 2."""

import argparse
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import time
import traceback

VISUALIZATION_KEY = "tl.layout_visualization_enable"
JSON_TAG = "TILESCOPE_KERNEL_JSON "
ERROR_TAG = "TILESCOPE_KERNEL_ERROR "


class Failure(Exception):
    """A failure with its one-line message for TILESCOPE_KERNEL_ERROR."""


# ---- capture: fd 1 and 2 into one temp file

class _FdWriter(io.TextIOBase):
    """sys.stdout/sys.stderr during the capture: unbuffered writes to fd 1 or 2, so Python's text
    and the C++ side's stay in write order in the log."""

    def __init__(self, fd):
        super().__init__()
        self._fd = fd

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def write(self, s):
        view = memoryview(s.encode("utf-8", errors="replace"))
        while view:
            try:
                view = view[os.write(self._fd, view):]
            except OSError:
                break
        return len(s)

    def flush(self):
        pass

    def fileno(self):
        return self._fd

    def isatty(self):
        return False


def _flush_c_stdio():
    try:
        import ctypes
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):
        pass


class Capture:
    def __enter__(self):
        for s in (sys.stdout, sys.stderr):
            try:
                s.flush()
            except (AttributeError, ValueError, OSError):
                pass
        _flush_c_stdio()
        self._file = tempfile.TemporaryFile(prefix="tilescope-lower-", suffix=".log")
        self._saved = {n: os.dup(n) for n in (1, 2)}
        log_fd = self._file.fileno()
        # Both descriptors share the file's one offset after dup2: writes land in order.
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        self._streams = (sys.stdout, sys.stderr)
        sys.stdout = _FdWriter(1)
        sys.stderr = _FdWriter(2)
        self.text = ""
        return self

    def __exit__(self, *exc):
        _flush_c_stdio()
        sys.stdout, sys.stderr = self._streams
        for n, saved in self._saved.items():
            os.dup2(saved, n)
            os.close(saved)
        self._file.seek(0)
        self.text = self._file.read().decode("utf-8", errors="replace")
        self._file.close()
        return False


# ---- choosing the kernel

def _load_module(path):
    if not os.path.isfile(path):
        raise Failure("file not found: %s" % path)
    sys.dont_write_bytecode = True  # leave no __pycache__ beside the user's file
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = "tilescope_kernel_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise Failure("cannot load %s as a Python module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Failure:
        raise
    except BaseException as e:  # SystemExit from the module included
        raise Failure("%s raised while loading: %s" % (os.path.basename(path), _last_line(e)))
    return module


def _kinds():
    from tilelang import tvm
    prim_types = [tvm.tirx.PrimFunc] if hasattr(tvm, "tirx") else [tvm.tir.PrimFunc]
    try:
        from tilelang.language.eager import PrimFunc as EagerPrimFunc
        prim_types.append(EagerPrimFunc)
    except ImportError:
        pass
    jit_types = []
    try:
        from tilelang.jit import JITImpl
        jit_types.append(JITImpl)
    except ImportError:
        pass
    try:
        from tilelang.jit.kernel import JITKernel
        jit_types.append(JITKernel)
    except ImportError:
        pass
    return tuple(prim_types), tuple(jit_types)


def _is_instance(obj, types):
    return bool(types) and isinstance(obj, types)


def _choose(module, name):
    prim_types, jit_types = _kinds()
    items = [(k, v) for k, v in vars(module).items() if not k.startswith("__")]
    prims = [k for k, v in items if _is_instance(v, prim_types)]
    jits = [k for k, v in items if _is_instance(v, jit_types)]
    if name is None:
        if prims:
            name = prims[-1]
        elif jits:
            name = jits[-1]
        else:
            raise Failure("no module-level PrimFunc or tilelang.jit kernel in %s (pass --function NAME "
                          "for a callable that returns one)" % module.__file__)
    if not hasattr(module, name):
        candidates = prims + jits
        raise Failure("no PrimFunc named %s (candidates: %s)"
                      % (name, ", ".join(candidates) if candidates else "none"))
    obj = getattr(module, name)
    pass_configs = {}
    if _is_instance(obj, prim_types):
        func = obj
    elif _is_instance(obj, jit_types):
        pass_configs = dict(getattr(obj, "pass_configs", None) or {})
        if hasattr(obj, "get_tir"):
            try:
                func = obj.get_tir()
            except TypeError as e:
                raise Failure("%s is a tilelang.jit function that needs arguments (%s): define a "
                              "module-level PrimFunc with fixed sizes" % (name, _last_line(e)))
        else:
            func = getattr(obj, "prim_func", None)
    elif callable(obj):
        try:
            func = obj()
        except TypeError as e:
            raise Failure("%s is not a PrimFunc and cannot be called without arguments (%s)"
                          % (name, _last_line(e)))
        if _is_instance(func, jit_types) and hasattr(func, "prim_func"):
            pass_configs = dict(getattr(func, "pass_configs", None) or {})
            func = func.prim_func
    else:
        raise Failure("%s is a %s, not a PrimFunc" % (name, type(obj).__name__))
    if not _is_instance(func, prim_types):
        raise Failure("%s did not give a PrimFunc (got %s)" % (name, type(func).__name__))
    return name, func, pass_configs


# ---- lowering

class _LayoutGrab:
    """Reads the layout map that tl.LayoutInference leaves on the IR's blocks (every shared and
    fragment buffer's inferred T.Layout / T.Fragment, swizzles included), right after that pass."""

    PASS = "tl.LayoutInference"

    def __init__(self):
        self.layouts = []
        self.error = None

    def make(self):
        from tilelang import tvm
        grab = self

        @tvm.instrument.pass_instrument
        class Instrument:
            def run_after_pass(self, mod, info):
                if info.name == grab.PASS and not grab.layouts and grab.error is None:
                    try:
                        grab.read(mod)
                    except Exception as e:  # never fail the lowering for this
                        grab.error = _last_line(e)

        return Instrument()

    def read(self, mod):
        from tilelang import tvm
        tir = tvm.tirx if hasattr(tvm, "tirx") else tvm.tir
        block_types = tuple(getattr(tir, n) for n in ("SBlock", "Block") if hasattr(tir, n))
        maps = []

        def visit(node):
            if isinstance(node, block_types) and "layout_map" in node.annotations:
                maps.append(node.annotations["layout_map"])

        for _, f in mod.functions.items():
            if hasattr(f, "body"):
                tir.stmt_functor.post_order_visit(f.body, visit)
        seen = set()
        for m in maps:
            for buf, layout in m.items():
                entry = _layout_entry(buf, layout)
                key = (entry["buffer"], entry["text"])
                if key not in seen:
                    seen.add(key)
                    self.layouts.append(entry)


def _layout_entry(buf, layout):
    is_fragment = hasattr(layout, "forward_thread")
    entry = {
        "buffer": buf.name,
        "scope": str(buf.scope()),
        "dtype": str(buf.dtype),
        "shape": [_int_or_none(x) for x in buf.shape],
        "kind": "fragment" if is_fragment else "layout",
        "text": str(layout),
    }
    try:
        entry["input_shape"] = [_int_or_none(x) for x in layout.get_input_shape()]
        entry["output_shape"] = [_int_or_none(x) for x in layout.get_output_shape()]
        entry["forward_vars"] = [str(getattr(v, "name", v)) for v in layout.get_forward_vars()]
        entry["forward_index"] = [str(e) for e in layout.forward_index]
        if is_fragment:
            entry["forward_thread"] = str(layout.forward_thread)
            entry["replicate"] = _int_or_none(layout.replicate_size)
            rng = getattr(layout, "thread_range", None)
            if rng is not None:
                entry["thread_range"] = [_int_or_none(rng.min), _int_or_none(rng.extent)]
    except Exception:  # the text above still says it all
        pass
    return entry



def _lower(func, arch, pass_configs):
    import tilelang
    from tilelang import tvm
    pc_class = tvm.transform.PassContext
    original_init = pc_class.__init__

    def init(pc, *args, **kwargs):
        # PassContext(opt_level, required_pass, disabled_pass, instruments, config): the key is
        # added where the caller did not set it (an explicit False stays False).
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
    cache_was_on = False
    try:
        if hasattr(tilelang, "is_cache_enabled"):
            cache_was_on = bool(tilelang.is_cache_enabled())
            if cache_was_on:
                tilelang.disable_cache()
        target = {"kind": "cuda", "arch": arch}
        config = dict(pass_configs)
        config.setdefault(VISUALIZATION_KEY, True)
        grab = _LayoutGrab()
        start = time.perf_counter()
        with tvm.transform.PassContext(opt_level=3, config=config, instruments=[grab.make()]), \
                tvm.target.Target(target):
            artifact = tilelang.lower(func, target=target)
        seconds = time.perf_counter() - start
    finally:
        pc_class.__init__ = original_init
        if cache_was_on:
            tilelang.enable_cache()
    return artifact, seconds, grab


# ---- describing the lowered kernel

def _int_or_none(x):
    try:
        from tilelang import tvm
        if isinstance(x, int):
            return int(x)
        if isinstance(x, tvm.tirx.IntImm if hasattr(tvm, "tirx") else tvm.tir.IntImm):
            return int(x.value)
    except (ImportError, AttributeError, TypeError, ValueError):
        pass
    try:
        return int(x)
    except (TypeError, ValueError):
        return None


def _split_top(text):
    """Split a C parameter list at the commas outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


_GLOBAL_DEF = re.compile(
    r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\(([^)]*)\)\s+)?(\w+)\s*\(([^)]*)\)\s*\{')


def _signatures(source):
    """{name: (launch_bounds or None, [(ctype, param name)])} from the __global__ definitions."""
    out = {}
    for m in _GLOBAL_DEF.finditer(source):
        bounds = None
        if m.group(1):
            try:
                bounds = [int(v.strip()) for v in m.group(1).split(",")]
            except ValueError:
                bounds = None
        params = []
        for p in _split_top(m.group(3)):
            pm = re.match(r"(.*?)(\w+)\s*$", p, re.S)
            if pm:
                params.append((" ".join(pm.group(1).split()), pm.group(2)))
        out[m.group(2)] = (bounds, params)
    return out


def _alloc_bytes(func):
    """(dynamic, static) shared bytes allocated in the device function's body: scope shared.dyn,
    and every other shared scope (shared, shared.barrier, ...), which CUDA declares __shared__."""
    from tilelang import tvm
    tir = tvm.tirx if hasattr(tvm, "tirx") else tvm.tir
    node_types = tuple(getattr(tir, n) for n in ("AllocBuffer", "Allocate") if hasattr(tir, n))
    totals = {"dyn": 0, "static": 0}

    def visit(node):
        if not isinstance(node, node_types):
            return
        buf = getattr(node, "buffer", None)
        if buf is not None:
            scope, dtype, extents = buf.scope(), buf.dtype, buf.shape
        else:
            scope = node.buffer_var.type_annotation.storage_scope
            dtype, extents = node.dtype, node.extents
        if not str(scope).startswith("shared"):
            return
        n = 1
        for e in extents:
            v = _int_or_none(e)
            if v is None:
                return
            n *= v
        dt = tvm.DataType(str(dtype))
        nbytes = (n * dt.bits * dt.lanes + 7) // 8
        totals["dyn" if scope == "shared.dyn" else "static"] += nbytes

    tir.stmt_functor.post_order_visit(func.body, visit)
    return totals["dyn"], totals["static"]


def _tma_args(host_mod):
    """{descriptor name: dict} from the host function's tma_descriptor_args attribute."""
    out = {}
    for _, f in host_mod.functions.items():
        attrs = f.attrs
        if attrs is None or "tma_descriptor_args" not in attrs:
            continue
        for var, args in attrs["tma_descriptor_args"].items():
            args = list(args)
            kind = str(getattr(args[0], "value", args[0]))
            vals = [_int_or_none(a) for a in args[2:]]
            tensor = getattr(args[4], "name", None) if len(args) > 4 else None
            entry = {"create": kind, "tensor": tensor}
            if kind.endswith("tiled") and len(vals) >= 3:
                dtype, rank = vals[0], vals[1]
                rest = vals[3:]
                entry.update({
                    "data_type": dtype, "rank": rank,
                    "global_dim": rest[0:rank],
                    "global_stride_bytes": rest[rank + 1:2 * rank],
                    "box_dim": rest[2 * rank:3 * rank],
                    "element_strides": rest[3 * rank:4 * rank],
                    "interleave": rest[4 * rank] if len(rest) > 4 * rank else None,
                    "swizzle": rest[4 * rank + 1] if len(rest) > 4 * rank + 1 else None,
                    "l2_promotion": rest[4 * rank + 2] if len(rest) > 4 * rank + 2 else None,
                    "oob_fill": rest[4 * rank + 3] if len(rest) > 4 * rank + 3 else None,
                })
            else:
                entry["raw"] = [v if v is not None else str(a) for v, a in zip(vals, args[2:])]
            out[var.name] = entry
    return out


def _describe(artifact, func):
    from tilelang import tvm
    source = artifact.kernel_source
    sigs = _signatures(source)
    tma = _tma_args(artifact.host_mod) if artifact.host_mod is not None else {}
    # The original buffers by their data pointer's name: the device parameters keep those names.
    buffers = {}
    for _, buf in func.buffer_map.items():
        buffers[buf.data.name] = buf
        buffers.setdefault(buf.name, buf)
    kernels = []
    for gv, f in artifact.device_mod.functions.items():
        attrs = f.attrs
        name = str(attrs["global_symbol"]) if attrs is not None and "global_symbol" in attrs else gv.name_hint
        grid, block = [1, 1, 1], [1, 1, 1]
        grid_expr, block_expr = ["1", "1", "1"], ["1", "1", "1"]
        if attrs is not None and "thread_extent" in attrs:
            for tag, extent in attrs["thread_extent"].items():
                tag = str(tag)
                if tag.startswith("threadIdx."):
                    block["xyz".index(tag[-1])] = _int_or_none(extent)
                    block_expr["xyz".index(tag[-1])] = str(extent)
                elif tag.startswith("blockIdx."):
                    grid["xyz".index(tag[-1])] = _int_or_none(extent)
                    grid_expr["xyz".index(tag[-1])] = str(extent)
        dyn = 0
        if attrs is not None and "dyn_shared_memory_buf" in attrs:
            dyn = _int_or_none(attrs["dyn_shared_memory_buf"])
        cluster = None
        if attrs is not None and "cluster_dims" in attrs:
            cluster = [_int_or_none(v) for v in attrs["cluster_dims"]]
        coop = bool(attrs is not None and "use_cooperative_groups" in attrs
                    and bool(attrs["use_cooperative_groups"]))
        alloc_dyn, alloc_static = _alloc_bytes(f)
        checks = []
        bounds, sig_params = sigs.get(name, (None, None))
        if sig_params is None:
            checks.append("no __global__ definition named %s in kernel_source" % name)
            sig_params = [("", p.name) for p in f.params]
        threads = None
        if None not in block:
            threads = block[0] * block[1] * block[2]
        if bounds and threads is not None and bounds[0] != threads:
            checks.append("__launch_bounds__(%d) but the block has %d threads" % (bounds[0], threads))
        if dyn is not None and alloc_dyn and alloc_dyn != dyn:
            checks.append("dyn_shared_memory_buf is %d bytes but the device IR allocates %d"
                          % (dyn, alloc_dyn))
        dev_params = {p.name: p for p in f.params}
        if [p for _, p in sig_params] != [p.name for p in f.params]:
            checks.append("signature parameters %s differ from the device function's %s"
                          % ([p for _, p in sig_params], [p.name for p in f.params]))
        params = []
        for ctype, pname in sig_params:
            var = dev_params.get(pname)
            ann = getattr(var, "type_annotation", None) if var is not None else None
            elem = getattr(ann, "element_type", None)
            scope = getattr(ann, "storage_scope", "")
            entry = {"name": pname, "ctype": ctype}
            if scope == "grid_constant" or "CUtensorMap" in ctype:
                entry["kind"] = "tma_descriptor"
                t = tma.get(pname)
                entry["tensor"] = t.get("tensor") if t else None
                entry["tma"] = t
            elif elem is not None or "*" in ctype:
                buf = buffers.get(pname)
                entry["kind"] = "buffer"
                if buf is not None:
                    entry["dtype"] = str(buf.dtype)
                    entry["shape"] = [_int_or_none(s) for s in buf.shape]
                else:
                    entry["dtype"] = str(getattr(elem, "dtype", "")) or None
                    entry["shape"] = None
                    checks.append("no buffer for pointer parameter %s" % pname)
            else:
                entry["kind"] = "scalar"
                entry["dtype"] = str(var.dtype) if var is not None else None
            params.append(entry)
        kernel = {
            "name": name, "grid": grid, "block": block, "dynamic_smem_bytes": dyn,
            "static_smem_bytes": alloc_static, "launch_bounds": bounds, "cluster": cluster,
            "cooperative": coop, "params": params, "checks": checks,
        }
        if None in grid or None in block:
            kernel["grid_expr"], kernel["block_expr"] = grid_expr, block_expr
        kernels.append(kernel)
    return kernels


# ---- main

def _last_line(e):
    text = str(e).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    last = lines[-1] if lines else ""
    return ("%s: %s" % (type(e).__name__, last)) if last else type(e).__name__


def _parse_args(argv):
    p = argparse.ArgumentParser(description="Lower a TileLang kernel for CUDA (Tilescope kernel X-ray).")
    p.add_argument("file")
    p.add_argument("--function", default=None)
    p.add_argument("--arch", default="sm_80")
    return p.parse_args(argv)


def _emit(line):
    out = sys.stdout
    out.write(line + "\n")
    out.flush()


def main(argv=None):
    args = _parse_args(argv)
    if not re.fullmatch(r"sm_\d+[a-z]?", args.arch):
        _emit(ERROR_TAG + "bad --arch %r (expected sm_80, sm_90, sm_90a, ...)" % args.arch)
        return 2
    if not os.path.isfile(args.file):
        _emit(ERROR_TAG + "file not found: %s" % args.file)
        return 2
    result, error = None, None
    cap = Capture()
    with cap:
        try:
            try:
                import tilelang  # noqa: F401
                from tilelang import tvm  # noqa: F401
            except ImportError as e:
                raise Failure("TileLang is not installed for %s (%s): pip install tilelang==0.1.15"
                              % (sys.executable, _last_line(e)))
            module = _load_module(args.file)
            name, func, pass_configs = _choose(module, args.function)
            try:
                artifact, seconds, grab = _lower(func, args.arch, pass_configs)
            except Exception as e:
                traceback.print_exc()
                raise Failure("TileLang raised: %s" % _last_line(e))
            try:
                kernels = _describe(artifact, func)
            except Exception as e:
                traceback.print_exc()
                raise Failure("reading the lowered kernel failed: %s" % _last_line(e))
            result = {
                "tilelang_version": getattr(tilelang, "__version__", "unknown"),
                "source": os.path.basename(args.file),
                "function": name,
                "arch": args.arch,
                "lower_seconds": round(seconds, 3),
                "kernel_source": artifact.kernel_source,
                "log": None,
                "kernels": kernels,
                "layouts": grab.layouts,
            }
            if grab.error is not None:
                result["layouts_error"] = grab.error
        except Failure as e:
            error = str(e)
        except BaseException as e:  # anything else, SystemExit and KeyboardInterrupt included
            traceback.print_exc()
            error = "unexpected %s" % _last_line(e)
    if error is not None:
        sys.stderr.write(cap.text)
        sys.stderr.flush()
        _emit(ERROR_TAG + " ".join(error.split()))
        return 2
    result["log"] = cap.text
    _emit(JSON_TAG + json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
