#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pathological reST: generated inputs through rst-dump, judged by the
shape of the output. The timeout only catches hangs and blow-ups (and a
memory limit of 2 GiB the rest); it never measures speed.

usage: pathological.py RST_DUMP [CASE...]
"""
import os
import resource
import subprocess
import sys
import tempfile

TIMEOUT = 60
MEMORY = 2 << 30


def grid(rows, cols, w):
    border = ('+' + '-' * w) * cols + '+\n'
    row = ('|' + 'x'.ljust(w)) * cols + '|\n'
    return border + (row + border) * rows


def simple(rows, cols, w):
    border = ' '.join(['=' * w] * cols) + '\n'
    row = ' '.join(['y'.ljust(w)] * cols) + '\n'
    return border + row * rows + border


def needs(*words):
    def check(out, err):
        for w in words:
            if w not in out and w not in err:
                return 'expected %r in the output' % w
        return None
    return check


def depth_at_most(n):
    def check(out, err):
        deepest = max((len(l) - len(l.lstrip(' '))) // 4
                      for l in out.splitlines() if l.lstrip().startswith('<'))
        return None if deepest <= n else 'tree %d deep' % deepest
    return check


def both(*checks):
    def check(out, err):
        for c in checks:
            r = c(out, err)
            if r:
                return r
        return None
    return check


def cases(k):
    """The cases, sizes divided by @k (10 under ASan, where every arena
    allocation is its own malloc)."""
    return {
        # 10^4 nested lists on one line, and 10^4 ever deeper indentations
        'bullets-1e4': ('- ' * (10000 // k) + 'x\n',
                        both(needs('[-Wrst-limit]'), depth_at_most(210))),
        'indent-1e4': (''.join(' ' * i + 'x\n\n' for i in range(10000 // k)),
                       both(needs('[-Wrst-limit]'), depth_at_most(210))),
        'line-block-1e4': (''.join('|' + ' ' * (i + 1) + 'l\n' for i in range(10000 // k)),
                           depth_at_most(210)),
        # a 10 MB grid table: 10^4 rows of 100 cells, and a 10 MB simple one
        'grid-10mb': (grid(5000 // k, 100, 9), needs('<table>', '<entry>')),
        'simple-10mb': (simple(10000 // k, 100, 9), needs('<table>', '<entry>')),
        # more cells than RST_MAX_TABLE_CELLS: kept as a literal block
        'grid-too-many-cells': (grid(3000, 400, 1) if k == 1 else '+--+\n| a |\n+--+\n', needs('[-Wrst-table]')),
        # start-strings without end-strings, 10^5 of each kind
        'unclosed-1e5': (' '.join(['*a', '**b', '``c', '`d', '|e', '_`f'] * (20000 // k)) + '\n',
                         needs('<problematic>')),
        'backslashes-1mb': ('\\' * ((1 << 20) // k) + '*x*\n', needs('<paragraph>')),
        'references-1e5': (' '.join('r%d_ [%d]_ [#]_' % (i, i) for i in range(100000 // k)) + '\n',
                           needs('<footnote_reference')),
        'titles-1e4': ''.join('Same\n====\n\n' for _ in range(10000 // k)),
        'long-line-1mb': ('word ' * (200000 // k) + '\n', needs('<paragraph>')),
        'nul-crlf-utf8': ('a\x00b\r\n\r\n\xff\xfe::\r\n\r\n  lit\r\n', needs('<literal_block')),
        'uri-backtrack': ('http://' + 'a.' * (100000 // k) + '\n', needs('<reference')),
        'names-1e4': ''.join('- a-%s\n' % ('b-' * 500) for _ in range(2000 // k)),
    }


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def no_limit():
    pass


def memory_limit(exe):
    """The address-space limit, unless ASan (which reserves terabytes of
    shadow memory) is linked in; then its own checks stand in."""
    with open(exe, 'rb') as f:
        return no_limit if b'__asan_init' in f.read() else limit


def main():
    dump = sys.argv[1]
    only = sys.argv[2:]
    asan = memory_limit(dump) is no_limit
    CASES = cases(10 if asan else 1)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in sorted(CASES.items()):
            if only and name not in only:
                continue
            if isinstance(case, str):
                case = (case, lambda out, err: None)
            text, check = case
            path = os.path.join(tmp, name + '.rst')
            with open(path, 'wb') as f:
                f.write(text.encode('utf-8', 'surrogateescape')
                        if not name.startswith('nul') else text.encode('latin-1'))
            try:
                p = subprocess.run([dump, path], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=TIMEOUT,
                                   preexec_fn=memory_limit(dump))
            except subprocess.TimeoutExpired:
                print('FAIL %s: no result in %d s' % (name, TIMEOUT))
                failed += 1
                continue
            out = p.stdout.decode('utf-8', 'replace')
            err = p.stderr.decode('utf-8', 'replace')
            problem = None
            if p.returncode != 0:
                problem = 'exit status %d: %s' % (p.returncode, err[-300:])
            else:
                problem = check(out, err)
            if problem:
                print('FAIL %s: %s' % (name, problem))
                failed += 1
            else:
                print('ok   %s' % name)
    print('%d failed' % failed)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
