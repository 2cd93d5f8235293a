#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden tests of quire's extractor.

Every test/kdoc/<construct>/<case>.c (or .h) is one case, named by its
path without the extension, e.g. kdoc/struct/nested-anon. For each case
the runner, working in the case's folder so paths print as the case's
file name,

  * runs `quire extract --json CASE.c` and compares stdout with
    CASE.jsonl (which must exist; it may be empty);
  * compares that command's stderr (the diagnostics exactly as printed)
    with CASE.diag; a case without CASE.diag must print nothing;
  * runs `quire check -q CASE.c` and requires the same diagnostics, less
    the ones only extract gives (-Wno-structured-comments);
  * requires exit status 1 when a diagnostic is an error, else 0.

CASE.args holds extra arguments for extract, one line (-v and -Werror are
passed to check as well). CASE.xfail says why the case is known to fail:
it is reported and does not fail the run, but a case that passes while
marked xfail fails the run, so fixes get noticed.

QUIRE_REGEN=1 rewrites CASE.jsonl and CASE.diag from quire's output
(never for xfail cases). Review the result with git diff.

Finally all cases are extracted in one run with -j1 and with -j8: the
outputs must be byte-identical.

usage: golden.py QUIRE CASEDIR [CASE-ID...]
"""
import json
import os
import shlex
import subprocess
import sys

EXTRACT_ONLY = ('[-Wno-structured-comments]',)
CHECK_ARGS = ('-v', '--verbose', '-Werror')


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout, p.stderr


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


def find_cases(root):
    cases = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(('.c', '.h')):
                cases.append(os.path.join(dirpath, name))
    return cases


def case_id(root, path):
    rel = os.path.relpath(path, os.path.dirname(root))
    return os.path.splitext(rel)[0]


def check_case(quire, path, regen):
    """Return a list of problems (empty when the case passes)."""
    cwd, name = os.path.split(path)
    stem = os.path.splitext(path)[0]
    args = []
    argf = read(stem + '.args')
    if argf is not None:
        args = shlex.split(argf.decode())
    rc, out, err = run([quire, 'extract', '--json'] + args + [name], cwd)
    crc, _, cerr = run([quire, 'check', '-q'] +
                       [a for a in args if a in CHECK_ARGS] + [name], cwd)
    problems = []
    if regen:
        write(stem + '.jsonl', out)
        if not out:
            open(stem + '.jsonl', 'wb').close()
        write(stem + '.diag', err)
    want_out = read(stem + '.jsonl')
    want_err = read(stem + '.diag') or b''
    if want_out is None:
        problems.append('no %s.jsonl (QUIRE_REGEN=1 writes it)' %
                        os.path.basename(stem))
    elif out != want_out:
        problems.append('extract --json differs from .jsonl:\n' +
                        diff(want_out, out))
    for n, line in enumerate(out.decode('utf-8', 'replace').splitlines()):
        try:
            json.loads(line)
        except ValueError as e:
            problems.append('output line %d is not JSON: %s' % (n + 1, e))
    if err != want_err:
        problems.append('diagnostics differ from .diag:\n' +
                        diff(want_err, err))
    only_check = b''.join(l for l in err.splitlines(True)
                          if not l.rstrip().endswith(
                              tuple(s.encode() for s in EXTRACT_ONLY)))
    if cerr != only_check:
        problems.append('check and extract disagree:\n' +
                        diff(only_check, cerr))
    want_rc = 1 if (b': error: ' in err) else 0
    if rc != want_rc:
        problems.append('extract exited %d, expected %d' % (rc, want_rc))
    if crc != (1 if b': error: ' in cerr else 0):
        problems.append('check exited %d' % crc)
    return problems


def diff(want, got):
    import difflib
    lines = difflib.unified_diff(
        want.decode('utf-8', 'replace').splitlines(),
        got.decode('utf-8', 'replace').splitlines(),
        'expected', 'got', lineterm='', n=1)
    return '\n'.join('    ' + l for l in lines)


def determinism(quire, cases):
    files = [os.path.abspath(c) for c in cases
             if not os.path.exists(os.path.splitext(c)[0] + '.xfail')]
    outs = []
    for j in ('1', '8'):
        outs.append(run([quire, 'extract', '--json', '-j', j] + files, '.'))
    return outs[0] == outs[1]


def main():
    quire, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    only = set(sys.argv[3:])
    regen = os.environ.get('QUIRE_REGEN') == '1'
    cases = find_cases(root)
    if only:
        cases = [c for c in cases if case_id(root, c) in only]
        if not cases:
            print('no such case: %s' % ' '.join(sorted(only)))
            return 1
    npass = nfail = nxfail = 0
    for path in cases:
        cid = case_id(root, path)
        xfail = read(os.path.splitext(path)[0] + '.xfail')
        problems = check_case(quire, path, regen and xfail is None)
        if xfail is not None:
            if problems:
                nxfail += 1
                print('xfail %s: %s' % (cid, xfail.decode().strip()))
            else:
                nfail += 1
                print('FAIL %s: passes but is marked xfail; '
                      'remove its .xfail' % cid)
        elif problems:
            nfail += 1
            print('FAIL %s' % cid)
            for p in problems:
                print('  ' + p)
        else:
            npass += 1
            print('ok %s' % cid)
    if not only and cases and not determinism(quire, cases):
        nfail += 1
        print('FAIL determinism: extract -j1 and -j8 differ')
    print('%d passed, %d failed, %d xfail, of %d cases' %
          (npass, nfail, nxfail, len(cases)))
    if regen:
        print('QUIRE_REGEN=1: expected files rewritten; review git diff')
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())
