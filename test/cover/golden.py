#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden tests of quire coverage on the small tree test/cover/tree.

Each CASE in CASES is a command line run in the tree; its stdout must
equal expected/CASE, its exit status the one given, and its stderr be
empty (unless the case expects an error). The JSON output must also be
the same with -j1 and -j8. QUIRE_REGEN=1 rewrites expected/; review
with git diff.

usage: golden.py QUIRE TESTDIR
"""
import json
import os
import subprocess
import sys

CASES = [
    ('all.txt', ['coverage', '.'], 0),
    ('all.jsonl', ['coverage', '--json', '.'], 0),
    ('maint.txt', ['coverage', '--by-maintainer', '.'], 0),
    ('scope.jsonl', ['coverage', '--json', '--by-maintainer', 'lib',
                     'drivers/widget/blue.c'], 0),
    ('dash-c.txt', ['coverage', '-C', '../tree/lib', '--by-maintainer',
                    '.'], 2),
    ('missing.txt', ['coverage', 'no/such/dir'], 2),
]


def main():
    quire, testdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    tree = os.path.join(testdir, 'tree')
    regen = os.environ.get('QUIRE_REGEN') == '1'
    problems = []
    for name, args, status in CASES:
        p = subprocess.run([quire] + args, cwd=tree, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        out = p.stdout + (b'--- stderr\n' + p.stderr if p.stderr else b'')
        path = os.path.join(testdir, 'expected', name)
        if regen:
            with open(path, 'wb') as f:
                f.write(out)
        with open(path, 'rb') as f:
            want = f.read()
        if out != want:
            problems.append('cover/%s: output differs from expected/%s:\n%s'
                            % (name, name, out.decode()))
        if p.returncode != status:
            problems.append('cover/%s: exit status %d, not %d' %
                            (name, p.returncode, status))
        if name.endswith('.jsonl'):
            for line in p.stdout.decode().splitlines():
                rec = json.loads(line)
                if rec.get('schema') != 1 or 'type' not in rec:
                    problems.append('cover/%s: bad record %s' % (name, line))
        print('%s cover/%s' % ('ok' if not problems else 'checked', name))

    # -C names the tree: the same table as running inside it
    a = subprocess.run([quire, 'coverage', '-C', 'tree', 'lib'], cwd=testdir,
                       stdout=subprocess.PIPE)
    b = subprocess.run([quire, 'coverage', 'lib'], cwd=tree,
                       stdout=subprocess.PIPE)
    if a.stdout != b.stdout or a.returncode or not a.stdout:
        problems.append('cover: -C tree differs from running in the tree')
    outs = [subprocess.run([quire, 'coverage', '--json', '--by-maintainer',
                            '-j', j, '.'], cwd=tree,
                           stdout=subprocess.PIPE).stdout for j in '18']
    if outs[0] != outs[1]:
        problems.append('cover: -j1 and -j8 differ')
    for pr in problems:
        print('FAIL ' + pr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
