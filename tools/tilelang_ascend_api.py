#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists what tilelang-ascend's `tilelang.language` (the `T.` of a script) exports at one commit.

Tilescope's released-route check (AscendKernel.ReleasedScriptUsesOnlyExportedNames) compares the
generated script's `T.<name>` calls with this list, so the list must come from tilelang-ascend's
own source, not from memory. The script reads the source with `git show` (a bare mirror is
enough), parses it with Python's ast (nothing of tilelang-ascend is imported or run), and follows
`tilelang/language/__init__.py`'s imports the way Python binds them: later bindings replace
earlier ones (`from .copy import copy, npu_copy_v2 as copy` exports npu_copy_v2), a relative
`import *` takes the module's `__all__` or its public top-level names, and an import from outside
the package (`from tvm.script.parser.tir import *`) is recorded by module name, since its source
is not in the repository.

Refresh both branches (then review the JSON diff, and commit it: the commit is recorded in it):
    git clone --bare https://github.com/tile-ai/tilelang-ascend /tmp/tla.git   # or any checkout
    for b in ascendc_pto npuir; do
        python3 tools/tilelang_ascend_api.py /tmp/tla.git $b > tests/data/tilelang_ascend/${b}_api.json
    done
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys

PACKAGE = "tilelang/language"


class Source:
    def __init__(self, git_dir: str, ref: str):
        self.git_dir = git_dir
        self.commit = self._git("rev-parse", ref + "^{commit}").strip()
        self.cache: dict[str, ast.Module | None] = {}

    def _git(self, *args: str) -> str:
        return subprocess.run(["git", "-C", self.git_dir, *args], check=True,
                              capture_output=True, text=True).stdout

    def module(self, path: str) -> ast.Module | None:
        if path not in self.cache:
            try:
                text = self._git("show", f"{self.commit}:{path}")
                self.cache[path] = ast.parse(text, filename=path)
            except subprocess.CalledProcessError:
                self.cache[path] = None
        return self.cache[path]


def module_path(src: Source, package: str, dotted: str) -> str | None:
    """File of a module inside the repository: package/dotted.py or package/dotted/__init__.py."""
    base = package + ("/" + dotted.replace(".", "/") if dotted else "")
    for cand in (base + ".py", base + "/__init__.py"):
        if src.module(cand) is not None:
            return cand
    return None


def relative_package(path: str, level: int) -> str:
    parts = path.split("/")[:-1]  # the package the module is in
    return "/".join(parts[: len(parts) - (level - 1)])


def top_statements(body):
    """Top-level statements, including those under module-level if/try (imports often are)."""
    for node in body:
        if isinstance(node, ast.If):
            yield from top_statements(node.body)
            yield from top_statements(node.orelse)
        elif isinstance(node, ast.Try):
            yield from top_statements(node.body)
            for h in node.handlers:
                yield from top_statements(h.body)
        else:
            yield node


def exports(src: Source, path: str, seen: tuple = ()) -> tuple[dict, list]:
    """name -> citation ("file:line (origin)") and the outside modules star-imported."""
    tree = src.module(path)
    if tree is None or path in seen:
        return {}, []
    seen = seen + (path,)
    names: dict[str, str] = {}
    stars: list[str] = []
    for node in top_statements(tree.body):
        where = f"{path}:{node.lineno}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = where
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    names[t.id] = where
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                for a in node.names:
                    if a.name == "*":
                        stars.append(node.module)
                    else:
                        names[a.asname or a.name] = f"{where} (from {node.module})"
                continue
            pkg = relative_package(path, node.level)
            target = module_path(src, pkg, node.module or "")
            for a in node.names:
                if a.name == "*":
                    if target is None:
                        stars.append(f"{pkg}/{node.module}")
                        continue
                    sub, sub_stars = exports(src, target, seen)
                    public = star_names(src, target, sub)
                    for n in public:
                        names[n] = sub[n]
                    stars.extend(sub_stars)
                    continue
                bound = a.asname or a.name
                if target is not None:
                    sub, _ = exports(src, target, seen)
                    if a.name in sub:
                        names[bound] = sub[a.name] + ("" if a.asname is None else
                                                      f" ({a.name} as {a.asname}, imported at {where})")
                        continue
                # `from . import module` binds a submodule.
                sub_mod = module_path(src, pkg, (node.module + "." if node.module else "") + a.name)
                names[bound] = sub_mod or f"{where} (unresolved {a.name})"
    return names, stars


def star_names(src: Source, path: str, defined: dict) -> list[str]:
    tree = src.module(path)
    for node in top_statements(tree.body):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                return [n for n in ast.literal_eval(node.value) if n in defined]
            except ValueError:
                break
    return [n for n in defined if not n.startswith("_")]


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    src = Source(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "ascendc_pto")
    names, stars = exports(src, PACKAGE + "/__init__.py")
    json.dump({
        "repository": "tile-ai/tilelang-ascend",
        "ref": sys.argv[2] if len(sys.argv) == 3 else "ascendc_pto",
        "commit": src.commit,
        "generated_by": "tools/tilelang_ascend_api.py",
        "module": "tilelang.language",
        "exports": dict(sorted(names.items())),
        "star_imports_from_outside": sorted(set(stars)),
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
