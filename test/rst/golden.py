#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden tests of quire's reST reader against docutils.

Every test/rst/cases/<construct>/<case>.rst is one case. The runner, in
the case's folder so paths print as the case's file name, runs
`rst-dump CASE.rst` and compares

  * stdout, the tree as pseudo-XML, with CASE.xml, which is docutils'
    own parse of the case (test/rst/docutils_tree.py) unless CASE.differs
    exists: that file says why quire's tree differs on purpose, and
    CASE.xml is then quire's reviewed output;
  * stderr, the diagnostics exactly as printed, with CASE.diag (no file:
    nothing may be printed); the exit status must be 0.

When docutils is installed it also checks the goldens themselves: a case
without CASE.differs must still be what docutils gives, and a case with
it must really differ from docutils (else the note is stale).

QUIRE_REGEN=1 rewrites CASE.xml (from docutils, or from quire for a
CASE.differs case) and CASE.diag from quire. Review with git diff.

usage: golden.py RST_DUMP TEST_RST_DIR [CASE-ID...]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def docutils_tree(folder, name):
    try:
        import docutils  # noqa: F401
    except ImportError:
        return None
    p = subprocess.run([sys.executable, os.path.join(HERE, 'docutils_tree.py'),
                        name], cwd=folder, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.stdout if p.returncode == 0 else None


def read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        return None


def write(path, data):
    if data:
        with open(path, 'wb') as f:
            f.write(data)
    elif os.path.exists(path):
        os.unlink(path)


def main():
    dump, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    only = set(sys.argv[3:])
    regen = os.environ.get('QUIRE_REGEN') == '1'
    cases = []
    base = os.path.join(root, 'cases')
    for dirpath, _, files in os.walk(base):
        for f in files:
            if f.endswith('.rst'):
                cases.append(os.path.join(dirpath, f[:-4]))
    cases.sort()
    failed = 0
    ran = 0
    for case in cases:
        cid = os.path.relpath(case, base)
        if only and cid not in only:
            continue
        ran += 1
        folder, name = os.path.dirname(case), os.path.basename(case) + '.rst'
        p = subprocess.run([dump, name], cwd=folder, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        differs = os.path.exists(case + '.differs')
        ref = docutils_tree(folder, name)
        if regen:
            if differs or ref is None:
                write(case + '.xml', p.stdout)
            else:
                write(case + '.xml', ref)
            write(case + '.diag', p.stderr)
        problems = []
        want = read(case + '.xml')
        if want is None:
            problems.append('no %s.xml' % cid)
        elif p.stdout != want:
            problems.append('tree differs from %s.xml' % cid)
        if p.stderr != (read(case + '.diag') or b''):
            problems.append('diagnostics differ from %s.diag:\n%s' %
                            (cid, p.stderr.decode(errors='replace')))
        if p.returncode != 0:
            problems.append('exit status %d' % p.returncode)
        if ref is not None and want is not None:
            if not differs and ref != want:
                problems.append('%s.xml is not what docutils gives' % cid)
            if differs and ref == p.stdout:
                problems.append('%s.differs is stale: docutils agrees now' % cid)
        if problems:
            failed += 1
            print('FAIL %s' % cid)
            for pr in problems:
                print('  ' + pr)
            if want is not None and p.stdout != want:
                import difflib
                for line in list(difflib.unified_diff(
                        want.decode(errors='replace').splitlines(),
                        p.stdout.decode(errors='replace').splitlines(),
                        'expected', 'quire', lineterm=''))[:40]:
                    print('    ' + line)
        else:
            print('ok   %s%s' % (cid, ' (differs from docutils on purpose)'
                                 if differs else ''))
    print('%d cases, %d failed' % (ran, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
