#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pathological inputs: generated, run through `quire extract --json` and
`quire check`, and judged by the shape of the output. The timeout only
catches hangs and blow-ups; it never measures speed.

usage: pathological.py QUIRE [CASE...]
"""
import json
import os
import subprocess
import sys
import tempfile

TIMEOUT = 120
# Known failures: name -> why. They run with a short timeout and fail the
# run as soon as they pass, so the fix gets noticed.
XFAIL = {}
XFAIL_TIMEOUT = 10


# Ten parameters a line: one line of 10^5 would pass the parser's 1 MiB
# line limit, and a prototype spread over 10^5 lines is slow (quadratic
# in its lines, as scripts/kernel-doc's is).
def fn_params(n):
    decl = ',\n\t'.join(', '.join('int p%d' % i for i in range(k, k + 10))
                         for k in range(0, n, 10))
    return ('/**\n * many() - many parameters\n' +
            ''.join(' * @p%d: p\n' % i for i in range(n)) +
            ' */\nvoid many(' + decl + ');\n')


def nested(depth):
    return ('/**\n * struct deep - deeply nested\n * @a: the innermost\n */\n'
            'struct deep {\n' + 'struct {\n' * depth + 'int a;\n' +
            '};\n' * depth + '};\n')


def many_comments(n):
    return ''.join('/**\n * f%d() - number %d\n */\nvoid f%d(void);\n\n' %
                   (i, i, i) for i in range(n))


# 10^6 bytes on one line (the parser's limit is 1 MiB a line).
def long_line(n):
    return ('/**\n * long_brief() - ' + 'x' * n + '\n */\n'
            'void long_brief(void);\n')


SIMPLE = '/**\n * f() - a function\n * @x: a value\n *\n * Return: @x.\n */\nint f(int x);\n'

# name: (input bytes, check(items, stderr) -> problem or None)
CASES = {
    'open-at-eof': (b'/**', lambda it, err: None),
    'open-at-eof-newline': (b'/**\n * f() - x\n', lambda it, err: None),
    'close-only': (b'*/\n*/ /** */ /**/', lambda it, err: None),
    'params-1e5': (fn_params(100000).encode(), lambda it, err:
                   None if len(it) == 1 and len(it[0]['params']) == 100000
                   else 'expected one item with 100000 parameters'),
    'nesting-1e4': (nested(10000).encode(), lambda it, err:
                    None if len(it) == 1 and it[0]['kind'] == 'struct' and
                    it[0]['name'] == 'deep'
                    else 'expected the one item struct deep, got %d items'
                    % len(it)),
    'nesting-1e4-members': (nested(10000).encode(), lambda it, err:
                            None if len(it) == 1 and
                            [p['name'] for p in it[0]['params']] == ['a']
                            and b"'}'" not in err
                            else 'expected struct deep with member a'),
    'comments-1e5': (many_comments(100000).encode(), lambda it, err:
                     None if len(it) == 100000 else
                     'expected 100000 items, got %d' % len(it)),
    'line-1mb': (long_line(10**6).encode(), lambda it, err:
                 None if len(it) == 1 and len(it[0]['brief']) == 10**6
                 else 'expected one item with a 1 MB brief'),
    'nul-bytes': (SIMPLE.encode().replace(b'a value', b'a \0value') +
                  b'\0' * 1000, lambda it, err: None),
    'crlf': (SIMPLE.replace('\n', '\r\n').encode(), lambda it, err:
             None if len(it) == 1 and it[0]['name'] == 'f' and
             [p['name'] for p in it[0]['params']] == ['x']
             else 'expected the item of the LF version'),
    # three bad bytes, three U+FFFD, and the warning that says so
    'invalid-utf8': (SIMPLE.encode().replace(b'a value', b'\xff\xfe\xc3'),
                     lambda it, err: None if len(it) == 1 and
                     it[0]['params'][0]['desc'].startswith('\ufffd' * 3)
                     and b'[-Winvalid-utf8]' in err else
                     'expected one item whose @x reads U+FFFD x3, and '
                     '-Winvalid-utf8'),
    'unbalanced': (b'/**\n * struct u - u\n */\nstruct u {\n' + b'{' * 5000 +
                   b'(' * 5000 + b'\n', lambda it, err: None),
}


def run(quire, name, data, check, tmp, timeout):
    path = os.path.join(tmp, name + '.c')
    with open(path, 'wb') as f:
        f.write(data)
    problems = []
    try:
        p = subprocess.run([quire, 'extract', '--json', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        c = subprocess.run([quire, 'check', '-q', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return ['hangs (over %d s)' % timeout]
    for what, proc in (('extract', p), ('check', c)):
        if proc.returncode not in (0, 1):
            problems.append('%s exited %d: %s' % (
                what, proc.returncode,
                proc.stderr.decode('utf-8', 'replace')[-500:]))
    items = []
    try:
        out = p.stdout.decode('utf-8')
        items = [json.loads(l) for l in out.splitlines()]
    except ValueError as e:
        problems.append('output is not UTF-8 JSON Lines: %s' % e)
    if not problems:
        msg = check(items, p.stderr)
        if msg:
            problems.append(msg)
    return problems


def main():
    quire = os.path.abspath(sys.argv[1])
    only = sys.argv[2:]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (data, check) in CASES.items():
            if only and name not in only:
                continue
            xfail = XFAIL.get(name)
            problems = run(quire, name, data, check, tmp,
                           XFAIL_TIMEOUT if xfail else TIMEOUT)
            if xfail:
                if problems:
                    print('xfail %s: %s' % (name, xfail))
                else:
                    failed += 1
                    print('FAIL %s: passes but is marked xfail; remove it '
                          'from XFAIL' % name)
            elif problems:
                failed += 1
                print('FAIL %s: %s' % (name, '; '.join(problems)))
            else:
                print('ok %s' % name)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
