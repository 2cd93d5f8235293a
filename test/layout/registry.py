#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the diagnostic registry against the docs and the goldens.

Every row of lib/util/diag.def must be listed in docs/warnings.md (as
"-Wname"), and every row must be triggered by at least one golden: some
expected file under test/ (a .diag or any expected output) contains
"[-Wname]". Rows whose goldens are still to come are listed in
test/layout/pending-diags.txt with the reason; such a row fails the test
once a golden triggers it, so the list only shrinks.

usage: registry.py SOURCE_ROOT
"""
import os
import re
import sys

ROW = re.compile(r'^QU_DIAG\(\s*(\w+),\s*"([^"]+)"', re.M)
SKIP_DIRS = {'node_modules', 'corpus', 'layout'}


def main():
    root = sys.argv[1]
    with open(os.path.join(root, 'lib/util/diag.def')) as f:
        names = [m.group(2) for m in ROW.finditer(f.read())]
    with open(os.path.join(root, 'docs/warnings.md')) as f:
        doc = f.read()
    pending = {}
    pfile = os.path.join(root, 'test/layout/pending-diags.txt')
    if os.path.exists(pfile):
        with open(pfile) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    name, _, why = line.partition(' ')
                    pending[name] = why.strip()
    triggered = set()
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'test')):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            if name.endswith(('.c', '.h', '.py', '.sh', '.build', '.js')):
                continue
            try:
                with open(os.path.join(dirpath, name), encoding='utf-8',
                          errors='replace') as f:
                    text = f.read()
            except OSError:
                continue
            for m in re.finditer(r'\[-W([a-z0-9-]+)\]', text):
                triggered.add(m.group(1))
    problems = []
    for n in names:
        if not re.search(r'-W%s\b(?!-)' % re.escape(n), doc):
            problems.append('docs/warnings.md does not list -W%s' % n)
        if n in pending:
            if n in triggered:
                problems.append('-W%s has a golden now; remove it from '
                                'test/layout/pending-diags.txt' % n)
        elif n not in triggered:
            problems.append('-W%s: no golden triggers it' % n)
    for n in pending:
        if n not in names:
            problems.append('pending-diags.txt names unknown -W%s' % n)
    for p in problems:
        print(p)
    print('%d diagnostics, %d pending, %d problems' %
          (len(names), len(pending), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
