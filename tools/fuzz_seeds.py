#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora of the libFuzzer targets (fuzz/) into OUT/<target>/.

Seeds come from the repository: samples/ (projects, logs, the interop samples' CuTe and Triton
texts, saved analyses), tests/data/goldens (spec strings and TileLang's printed thread/index
expressions and reprs; projects built from the spec strings), tests/data/logs, the access texts of
the samples' H200 sweep, the tests and the docs, tests/data/malformed (every malformed input) and
tests/data/fuzz-regressions (every past finding)."""
import glob, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build-fuzz", "seeds")
seeds = {t: [] for t in ("expr", "mapping", "dump", "document", "banks", "notation", "kernel")}

def rd(p):
    with open(p, "rb") as f:
        return f.read()

# The kernel X-ray reads TileLang's generated CUDA: the real kernels of data/.
for p in sorted(glob.glob(f"{root}/data/kernels*/*/kernel.cu")):
    seeds["kernel"].append(rd(p))

# The projects below are titled with the family's file name as it was before the goldens were
# gzipped (cute.json), so that the corpus is the same.
golden_specs = {}
for g in golden_file.golden_paths():
    d = golden_file.load(g)
    golden_specs[golden_file.family_of(g) + ".json"] = [c["spec"] for c in d.get("cases", [])
                                                        if isinstance(c.get("spec"), str)]
    # CuTe and Triton text (and Gluon constructors) for the notation target.
    if d.get("generator") == "tools/gen_interop_goldens.py":
        for c in d.get("cases", []):
            seeds["notation"].append(c["spec"].encode())
        for c in d.get("constructors", []):
            if isinstance(c, dict) and c.get("spec"):
                seeds["notation"].append(c["spec"].encode())
    for c in d.get("cases", []):
        seeds["mapping"].append(c["spec"].encode())
        if c.get("repr"):
            seeds["dump"].append(b"\x05\x00" + c["repr"].encode() + b"\n")
        for k in ("tilelang_forward_thread",):
            if isinstance(c.get(k), str):
                seeds["expr"].append(c[k].encode())
        for e in c.get("tilelang_forward_index") or []:
            if isinstance(e, str):
                seeds["expr"].append(e.encode())
analyses = []
for p in sorted(glob.glob(f"{root}/samples/*.json")):
    seeds["document"].append(rd(p))
    for l in json.load(open(p)).get("layouts", []):
        seeds["mapping"].append(l["text"].encode())
        # The interop samples hold CuTe and Triton texts: the notation target reads those too.
        seeds["notation"].append(l["text"].encode())
        if isinstance(l.get("analysis"), dict):
            analyses.append(l["analysis"])
# Projects as the GUI writes them, holding the goldens' real TileLang texts (eight layouts each,
# with captions, saved analyses and views), so that the document target starts from the
# layouts users open rather than only from the dozen samples.
views = [{"view": "input", "color": "thread", "zoom": 1.0}, {"view": "output", "color": "warp", "zoom": 0.5}]
for name, specs in golden_specs.items():
    for k in range(0, min(len(specs), 64), 8):
        layouts = []
        for n, spec in enumerate(specs[k:k + 8]):
            l = {"name": f"{name} {k + n}", "text": spec, "view": views[n % 2]}
            if n % 3 == 0:
                l["caption"] = f"case {k + n} of {name}"
            if analyses and n % 4 == 1:
                l["analysis"] = analyses[(k + n) % len(analyses)]
            layouts.append(l)
        doc = {"format": "tilescope-project", "version": 1, "title": name, "active": 0, "layouts": layouts}
        seeds["document"].append(json.dumps(doc, indent=2, ensure_ascii=False).encode())
for i, p in enumerate(sorted(glob.glob(f"{root}/samples/logs/*.log") + glob.glob(f"{root}/tests/data/logs/*.log"))):
    seeds["dump"].append(bytes([i * 37 % 256, i]) + rd(p))
mal = f"{root}/tests/data/malformed"
for p in glob.glob(f"{mal}/expr/*"):
    seeds["expr"].append(rd(p))
for p in glob.glob(f"{mal}/mapping/*"):
    seeds["mapping"].append(rd(p))
for p in glob.glob(f"{mal}/project/*"):
    seeds["document"].append(rd(p))
for p in glob.glob(f"{mal}/dump/*"):
    seeds["dump"].append(b"\x01\x02" + rd(p))
for p in glob.glob(f"{mal}/banks/*"):
    seeds["banks"].append(b"\x00\x07" + rd(p))
# Conditionals as TVM prints them and as users write them (the goldens add TileLang's own).
for e in ["T.if_then_else(_i < 4 and 1 < _i, _i, 7 - _i)", "T.Cast(\"int32\", _i < 4 < (_j < 2)) * 3",
          "T.Select(not _i < 4 or _j == 2, T.likely(_i >= 1), _j != 0) * _rep",
          "T.if_then_else(T.And(T.bool(True), _i <= 3), T.abs(_i - _j), T.int64(2))",
          "(i < 4) * (j < 4) * 64 + i if 1 else t"]:
    seeds["expr"].append(e.encode())
for a in ["ldmatrix:x4", "ldmatrix:x4.trans@0,16", "stmatrix:x2@8,8", "ldmatrix:x1",
          "lanes:lambda t: (t, 0)", "lanes:lambda t: (0, t)", "lanes:lambda t, k: (t % 8, k * 8)",
          "lanes:lambda t: (t // 4, t % 4 * 2)", "lanes:lambda t: (t * 3,)",
          "lanes:lambda t: (t % 16, T.if_then_else(t < 16, 0, 32))",
          "fragment:T.Fragment([32, 32], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)",
          "fragment:make_gemm_c_fragment((32, 32), 32)"]:
    for b0 in (0, 1, 5, 9):
        seeds["banks"].append(bytes([b0, 0x07]) + a.encode())
# Access texts that real analyses use: the samples' saved analyses, the H200 sweep of the samples,
# and those the tests and docs quote (string literals starting with an access kind).
accesses = {a["access"] for a in analyses if isinstance(a.get("access"), str)}
ACCESS = re.compile(r'"((?:ldmatrix|stmatrix|lanes|fragment):(?:[^"\\]|\\.)*)"')
for p in sorted(glob.glob(f"{root}/tests/core/**/*.cpp", recursive=True) + glob.glob(f"{root}/docs/*.md")
                + [f"{root}/tools/samples_sweep.json"]):
    for m in ACCESS.finditer(open(p, encoding="utf-8").read()):
        accesses.add(m.group(1).replace('\\"', '"'))
for i, a in enumerate(sorted(accesses)):
    for b0, b1 in ((0, 0x07), (i % 16, (i * 7) % 64)):
        seeds["banks"].append(bytes([b0, b1]) + a.encode())
for t in seeds:
    for p in glob.glob(f"{root}/tests/data/fuzz-regressions/{t}/*"):
        seeds[t].append(rd(p))
for t, items in seeds.items():
    d = os.path.join(out, t)
    os.makedirs(d, exist_ok=True)
    items = list(dict.fromkeys(items))  # the goldens repeat many texts
    for i, s in enumerate(items):
        with open(os.path.join(d, f"seed-{i:04d}"), "wb") as f:
            f.write(s)
    print(f"{t}: {len(items)} seeds")
