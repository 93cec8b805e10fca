# SPDX-License-Identifier: Apache-2.0
import subprocess, os, sys, json, glob, re
CLI, PROBE = sys.argv[1], sys.argv[2]
LIN = 'make_linear_layout((16, 64), "float16")'
def cmd(p, path):
    c = open(path, 'rb').read().decode('utf-8', 'replace')
    if p == 'expr': return [CLI, 'table', 'T.Layout([4, 4], lambda i, j: (%s,))' % c]
    if p == 'mapping': return [CLI, 'table', c]
    if p == 'project': return [CLI, 'table', path]
    if p == 'dump': return [CLI, 'import-dump', path, '--strict']
    if p == 'banks': return [CLI, 'banks', LIN, '--dtype', 'float16', '--access', c]
    if p == 'probe': return [PROBE, '--compile-only', path]
out = []
for p in ['expr','mapping','project','dump','banks','probe']:
    for f in sorted(glob.glob(p + '/*')):
        r = subprocess.run(cmd(p, f), capture_output=True, timeout=120)
        err = r.stderr.decode('utf-8','replace')
        if p == 'probe':
            msg = json.loads(r.stdout)['error']
        elif p == 'dump':
            l = [x for x in err.splitlines() if 'warning:' in x][0]
            msg = re.sub(r'^tilescope-cli: warning: [^:]*:\d+: ', '', l)
        else:
            l = [x for x in err.splitlines() if 'error:' in x][0]
            msg = l.split('error: ', 1)[1]
            msg = re.sub(r'^' + re.escape(f) + ': ', '', msg)
        msg = msg[:70]
        out.append({"file": f, "parser": p, "exit": r.returncode, "message": msg})
        print(r.returncode, f, msg)
json.dump({"about": "Malformed inputs and the error each must give (tests/core/app/test_malformed.cpp). "
           "parser: expr (wrapped as T.Layout([4, 4], lambda i, j: (EXPR,)) and passed to `tilescope-cli table`), "
           "mapping (`table TEXT`), project (`table FILE`), dump (`import-dump FILE --strict`), "
           "banks (`banks make_linear_layout((16, 64), \"float16\") --dtype float16 --access TEXT`), "
           "probe (`tilescope-probe --compile-only FILE`, message in the JSON \"error\"). "
           "message: a substring of the first error (or, for dump, warning) line.",
           "cases": out}, open('manifest.json', 'w'), indent=1)
print(len(out))
