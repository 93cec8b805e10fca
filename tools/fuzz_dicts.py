#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the libFuzzer dictionaries of the fuzz targets (fuzz/dict/<target>.dict).

The tokens come from the parsers' own tables and from real inputs, so that a new builtin, keyword,
log marker or JSON key reaches the dictionaries when this is re-run:
  - the string literals of each parser's sources (operator and function tables, builtin names and
    their parameters, dtypes, log markers, JSON keys, CuTe/Triton keywords), keeping those that
    look like tokens rather than messages;
  - the identifiers and punctuation of the goldens' spec strings (TileLang 0.1.15's own texts),
    the interop goldens' CuTe/Triton specs, and the samples' projects;
  - the first words of the lines of the real TileLang logs (samples/logs, tests/data/logs).
Usage: tools/fuzz_dicts.py [OUT_DIR=fuzz/dict]; the result is committed (CI and make fuzz-long
read it), so run this after changing a parser's tables and commit the difference."""
import collections, glob, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "fuzz", "dict")

# libFuzzer ignores dictionary entries over 64 bytes.
MAX = 64
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def src(*patterns):
    files = []
    for p in patterns:
        files += sorted(glob.glob(os.path.join(root, p)))
    return files


def literals(files, spaces=False):
    """String literals of C++ sources that look like tokens: no message text (a literal with a
    space is kept only when `spaces`, for multi-word log markers, and never past 6 words)."""
    toks = set()
    for f in files:
        text = open(f, encoding="utf-8").read()
        text = re.sub(r"(?m)(?:^|(?<=\s))//[^\n]*|#include[^\n]*", "", text)  # comments quote examples, not tokens
        for m in LITERAL.finditer(text):
            s = bytes(m.group(1), "utf-8").decode("unicode_escape", errors="ignore")
            if not s or len(s) > 40 or "\n" in s:
                continue
            if " " in s and (not spaces or len(s.split()) > 6 or s.endswith((": ", ", "))):
                continue
            if re.search(r"[A-Za-z]", s) and not re.match(r"^[\w.:#<>\[\]{}()=,*+/%&|^!~-]+( [\w.:#<>\[\]{}()=,*+/%&|^!~'-]+)*$", s):
                continue
            toks.add(s)
    return toks


def idents(texts, top=400, min_count=1):
    c = collections.Counter()
    for t in texts:
        c.update(IDENT.findall(t))
    return {w for w, n in c.most_common(top) if n >= min_count}


def goldens():
    for g in golden_file.golden_paths():
        yield golden_file.load(g)


def golden_specs(interop=None):
    for d in goldens():
        is_interop = d.get("generator") == "tools/gen_interop_goldens.py"
        if interop is not None and interop != is_interop:
            continue
        for c in d.get("cases", []):
            if isinstance(c.get("spec"), str):
                yield c["spec"]
        for c in d.get("constructors", []) if is_interop else []:
            if isinstance(c, dict) and isinstance(c.get("spec"), str):
                yield c["spec"]


def golden_exprs():
    for d in goldens():
        for c in d.get("cases", []):
            if isinstance(c.get("tilelang_forward_thread"), str):
                yield c["tilelang_forward_thread"]
            for e in c.get("tilelang_forward_index") or []:
                if isinstance(e, str):
                    yield e


def logs():
    for p in sorted(glob.glob(f"{root}/samples/logs/*.log") + glob.glob(f"{root}/tests/data/logs/*.log")):
        yield open(p, encoding="utf-8", errors="replace").read()


PY = ["lambda", " if ", " else ", " and ", " or ", "not ", "True", "False", "None", "(", ")", "[", "]",
      ",", ":", ".", "=", "//", "%", "**", "<<", ">>", "^", "&", "|", "~", "<", "<=", "==", "!=",
      ">=", ">", "-", "+", "*", "/", "0", "1", "2", "4", "8", "16", "32", "64", "128", "256",
      "1024", "65536", "-1", "0x", "_", "lambda i, j:", "lambda i:", "lambda i, j, k:", "(i, j)",
      "\"float16\"", "\"int8\"", "\"float32\""]
VARS = ["_i", "_j", "_k", "_rep", "i", "j", "t", "k", "rep"]

mapping_src = src("core/notation/src/mapping.cpp", "core/notation/src/mapping_text.cpp",
                  "core/notation/src/tilelang_code.cpp", "core/layout/src/builtins*.cpp",
                  "core/layout/src/layout.cpp", "core/layout/src/repr.cpp", "core/lang/src/pyparse.cpp")
expr_src = src("core/notation/src/mapping.cpp", "core/lang/src/pyparse.cpp", "core/lang/src/expr.cpp")
notation_src = src("core/notation/src/cute_layout.cpp", "core/notation/src/linear_layout.cpp",
                   "core/notation/src/triton_layouts.cpp", "core/notation/src/triton_ll_build.cpp",
                   "core/notation/src/interop_convert.cpp", "core/notation/src/notation.cpp",
                   "core/notation/src/*.h")
dump_src = src("core/trace/src/*.cpp", "core/trace/src/*.h")
banks_src = src("core/banks/src/access.cpp", "core/banks/src/access_default.cpp")
document_src = src("core/notation/src/document.cpp")

dicts = {}
exprs = list(golden_exprs())
dicts["expr"] = (set(PY) | set(VARS) | literals(expr_src) | idents(exprs, 200)
                 | {"T.Cast(\"int32\", ", "T.if_then_else(", "T.Select(", "T.floordiv(", "T.floormod("})
specs = list(golden_specs(interop=False))
dicts["mapping"] = (set(PY) | set(VARS) | literals(mapping_src) | idents(specs, 400)
                    | {"T.Layout(", "T.Fragment(", "forward_thread_fn=", "forward_index_fn=",
                       "replicate=", ".repeat(", ".replicate(", ".condense_rep_var()", "dtype="})
nspecs = list(golden_specs(interop=True))
dicts["notation"] = (set(PY) | literals(notation_src) | idents(nspecs, 300)
                     | {"#ttg.linear<{", "register = ", "lane = ", "warp = ", "block = ", "}>",
                        "reg_bases=", "lane_bases=", "warp_bases=", "block_bases=[]", "shape=",
                        "offset_bases=", "(8,64):(64,1)", "((2,4),8):((1,16),2)", " o ", "Sw<",
                        "[[0, 1], [1, 0]]", "[]"})
# A log's lines open with markers (`Get different layout for`, `Layout infer conflict between`,
# reprs); the first three words of every line of the real logs, and the parser's literals.
first_words = collections.Counter()
for text in logs():
    for line in text.splitlines():
        w = line.strip().split()
        for n in (1, 2, 3):
            if len(w) >= n:
                first_words[" ".join(w[:n])] += 1
dicts["dump"] = (literals(dump_src, spaces=True) | {w for w, n in first_words.most_common(300) if n >= 2}
                 | literals(mapping_src) & {"T.Layout", "T.Fragment", "Layout", "Fragment"}
                 | {"\n", "\r\n", "-->", "Layout(", "Fragment(", "forward_thread=", "replicate=",
                    "Get different layout for ", "Layout infer conflict between ", " in T.Parallel loop",
                    "Layout may conflict with ReduceOp", "layout_inference.cc:", "\x1b[0m"})
dicts["document"] = (literals(document_src) | {"\"" + k + "\":" for k in literals(document_src) if IDENT.fullmatch(k)}
                     | {"{", "}", "[", "]", ":", ",", "\"", "null", "true", "false", "1e400", "-0",
                        "\\u0000", "\\ud800", "\"layouts\": [", "\"text\": \"", "\"name\": \""}
                     | idents(specs, 80))
dicts["banks"] = (literals(banks_src) | set(VARS) | {"ldmatrix:", "stmatrix:", "lanes:", "fragment:", "x1", "x2", "x4",
                                                   ".trans", "@", "lambda t:", "lambda t, k:", "(t, 0)",
                                                   "t % 8", "t // 4", "T.if_then_else(", "make_gemm_c_fragment("}
                  | {"(", ")", ",", ":", "%", "//", "*", "+", "^", "0", "1", "4", "8", "16", "32"})


def escape(s):
    b = s.encode("utf-8")
    return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\x%02x" % c for c in b)


os.makedirs(out, exist_ok=True)
for t, toks in sorted(dicts.items()):
    toks = sorted(x for x in toks if x and len(x.encode()) <= MAX)
    with open(os.path.join(out, f"{t}.dict"), "w") as f:
        f.write(f"# libFuzzer dictionary of fuzz_{t}: generated by tools/fuzz_dicts.py, do not edit.\n")
        for x in toks:
            f.write(f'"{escape(x)}"\n')
    print(f"{t}: {len(toks)} tokens")
