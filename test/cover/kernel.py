#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quire coverage on linux-source-6.1, against a direct computation.

The tree is unpacked once into CACHE (shared with test/man/kernel.py).
Without the tarball the test skips (77). Then `quire coverage --json
--by-maintainer .` runs at the top of the tree and its counts are
computed again here, independently:

  * the exports: every use of a macro of lib/source/exports.def in a .c
    or .h file, found with a regular expression on the text with its
    comments removed;
  * the documented names and their undescribed parameters: from
    `quire extract --json` over every file with a line starting "/**";
  * the MAINTAINERS entries of a fixed sample of 40 entries, with
    scripts/get_maintainer.pl's own conversion of F: and X: patterns to
    regular expressions and its file_match_pattern() rule.

The totals, every directory's row and every sampled entry's row must
agree exactly.

usage: kernel.py QUIRE CACHE
"""
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'man'))
import kernel as mankernel  # noqa: E402  (the shared unpacking)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def export_macros():
    with open(os.path.join(ROOT, 'lib', 'source', 'exports.def')) as f:
        return re.findall(r'^QU_EXPORT\("(\w+)"', f.read(), re.M)


def c_files(tree):
    out = []
    for d, dirs, files in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.'))
        for f in files:
            if f.endswith(('.c', '.h')) and not f.startswith('.'):
                out.append(os.path.relpath(os.path.join(d, f), tree))
    return sorted(out)


def exports(tree, files):
    """Lines that start with an export macro, as kernel-doc's
    $export_symbol reads them (its two macros widened to exports.def)."""
    macro = re.compile(r'^[ \t\r\f\v]*(%s)[ \t\r\f\v]*\([ \t\r\f\v]*(\w+)'
                       r'[ \t\r\f\v]*[,)]' % '|'.join(export_macros()),
                       re.M)
    res = []
    for f in files:
        with open(os.path.join(tree, f), 'rb') as fh:
            text = fh.read()
        if b'EXPORT_' not in text:
            continue
        for m in macro.finditer(text.decode('latin-1')):
            res.append((f, m.group(2)))
    return res


def perl_regex(value, tree):
    """read_maintainer_file()'s conversion of an F: or X: value."""
    v = value.replace('.', '\\.').replace('*', '.*').replace('?', '.')
    if os.path.isdir(os.path.join(tree, v)) and not v.endswith('/'):
        v += '/'
    return v


def file_match(f, pat):
    """file_match_pattern()."""
    if pat.endswith('/'):
        return re.match(pat, f) is not None
    return re.match(pat, f) is not None and f.count('/') == pat.count('/')


def entries(tree):
    ents, cur = [], None
    with open(os.path.join(tree, 'MAINTAINERS'), encoding='utf-8',
              errors='replace') as f:
        for line in f.read().split('\n'):
            m = re.match(r'^([A-Z]):\s*(.*)', line)
            if m:
                if cur is None:
                    cur = ('', [])
                    ents.append(cur)
                if m.group(1) in 'FX':
                    cur[1].append((m.group(1), perl_regex(m.group(2), tree)))
            elif not re.match(r'^\s*$|^\s*#', line):
                cur = (line.rstrip(), [])
                ents.append(cur)
    return ents


def main():
    quire, cache = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not os.path.exists(mankernel.TARBALL):
        print('skip: %s not found (apt install linux-source-6.1)' %
              mankernel.TARBALL)
        return 77
    tree = mankernel.unpack(cache)
    t0 = time.time()
    p = subprocess.run([quire, 'coverage', '--json', '--by-maintainer', '.'],
                       cwd=tree, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    took = time.time() - t0
    if p.returncode:
        print('quire coverage failed: %s' % p.stderr.decode()[-2000:])
        return 1
    recs = [json.loads(l) for l in p.stdout.decode().split('\n') if l]
    by = collections.defaultdict(dict)
    for r in recs:
        if r['type'] in ('dir', 'maintainer', 'total'):
            by[r['type']][r['name']] = r
    total = by['total']['total']
    print('quire coverage: %.1f s; %d exports, %d documented; %d items, '
          '%d complete' % (took, total['exports'], total['documented'],
                           total['items'], total['complete']))

    # the direct computation
    files = c_files(tree)
    exp = exports(tree, files)
    docfiles = mankernel.doc_files(tree)
    p = subprocess.run([quire, 'extract', '--json'] + docfiles, cwd=tree,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    items = [json.loads(l) for l in p.stdout.decode().split('\n') if l]
    items = [i for i in items if i['kind'] != 'doc']
    documented = set(i['name'] for i in items)
    row = lambda: collections.Counter()
    dirs = collections.defaultdict(row)
    want_total = row()
    for f, name in exp:
        d = os.path.dirname(f) or '.'
        for c in (dirs[d], want_total):
            c['exports'] += 1
            c['documented'] += name in documented
    for it in items:
        d = os.path.dirname(it['file']) or '.'
        ok = all(pm['desc'] for pm in it['params'])
        for c in (dirs[d], want_total):
            c['items'] += 1
            c['complete'] += ok
    problems = []
    keys = ('exports', 'documented', 'items', 'complete')
    if any(want_total[k] != total[k] for k in keys):
        problems.append('total: quire %s, direct %s' %
                        ([total[k] for k in keys],
                         [want_total[k] for k in keys]))
    for d in sorted(set(dirs) | set(by['dir'])):
        got = [by['dir'].get(d, {}).get(k, 0) for k in keys]
        want = [dirs[d][k] for k in keys]
        if got != want:
            problems.append('dir %s: quire %s, direct %s' % (d, got, want))
    print('directories: %d compared' % len(set(dirs) | set(by['dir'])))

    # a fixed sample of MAINTAINERS entries, matched the reference's way
    ents = [e for e in entries(tree) if e[1]]
    key = lambda e: hashlib.sha1(e[0].encode()).hexdigest()
    named = [e for e in ents if e[0] in ('KOBJECT', 'WORKQUEUE') or
             e[0].startswith('LIBATA SUBSYSTEM')]
    sample = named + sorted(ents, key=key)[:40 - len(named)]
    titles = collections.Counter(e[0] for e in ents)
    for title, pats in sample:
        if titles[title] > 1:
            continue  # two entries of one title share a row
        def match(f):
            if any(t == 'X' and file_match(f, p) for t, p in pats):
                return False
            return any(t == 'F' and file_match(f, p) for t, p in pats)
        c = row()
        for f, name in exp:
            if match(f):
                c['exports'] += 1
                c['documented'] += name in documented
        for it in items:
            if match(it['file']):
                c['items'] += 1
                c['complete'] += all(pm['desc'] for pm in it['params'])
        got = [by['maintainer'].get(title, {}).get(k, 0) for k in keys]
        want = [c[k] for k in keys]
        if got != want:
            problems.append('entry %s: quire %s, direct %s' %
                            (title, got, want))
    print('MAINTAINERS entries: %d compared' % len(sample))
    for pr in problems[:40]:
        print('FAIL ' + pr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
