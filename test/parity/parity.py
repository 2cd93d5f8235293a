#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Parity of `quire extract --json` with the kernel's `scripts/kernel-doc
-rst` on a deterministic sample of linux-source-6.1.

The sample: files under arch, block, crypto, drivers, fs, include, kernel,
lib, mm, net, security and sound with a line starting "/**", a fixed
number per area (TARGETS), chosen by the SHA-1 of their paths, so the
same tree always gives the same sample. They are taken from the Debian
tarball (/usr/src/linux-source-6.1.tar.xz, or $QUIRE_LINUX_TARBALL) in
one streaming pass, with scripts/kernel-doc, into a cache folder under the
build folder and reused from there. Without the tarball the test is
skipped (exit 77).

Both tools run on each sampled file; items are matched per file in order
by (kind, name) and agree when their ordered parameter or member names
and their section titles agree as well. Warnings are compared per
category (the -W name quire gives; the reference's messages are mapped to
those names). The test fails when fewer than ITEM_AGREEMENT of the
reference's items agree, or when a category's counts differ by more than
WARN_TOLERANCE (relative) and WARN_SLACK (absolute) together.

Normalisations, each a difference in presentation rather than in
meaning: the reference lists anonymous struct/union members as
"{unnamed_struct}" / "{unnamed_union}" and a (void) parameter list as one
parameter "void"; both are dropped. Parameter names are read from the
reference's "``type name``" lines. A DOC: block's text is its only
section, which the reference prints under the block's title: DOC: blocks
are compared by title alone.

usage: parity.py QUIRE CACHE_DIR [--tree DIR] [--all] [--report FILE]
  --tree DIR     use an unpacked kernel tree instead of the tarball
  --all          every kernel-doc file, not a sample (with --tree: of the
                 whole tree, as test/bench/kdoc.sh takes them)
  --report FILE  write every disagreement to FILE
"""
import argparse
import collections
import concurrent.futures
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import time

TARBALL = os.environ.get('QUIRE_LINUX_TARBALL',
                         '/usr/src/linux-source-6.1.tar.xz')
# Files sampled per area: 338 in all, every area of the tree represented.
TARGETS = {
    'arch': 40, 'block': 8, 'crypto': 10, 'drivers': 90, 'fs': 30,
    'include': 50, 'kernel': 20, 'lib': 15, 'mm': 12, 'net': 25,
    'security': 13, 'sound': 25,
}
# Files with kernel-doc per area in linux-source-6.1, to set the rate of
# the streaming pass (twice what the target needs, then cut by hash).
COUNTS = {
    'arch': 857, 'block': 52, 'crypto': 27, 'drivers': 6677, 'fs': 413,
    'include': 1471, 'kernel': 203, 'lib': 119, 'mm': 76, 'net': 322,
    'security': 99, 'sound': 329,
}
SAMPLE_VERSION = '1'
ITEM_AGREEMENT = 0.99
WARN_TOLERANCE = 0.02
WARN_SLACK = 3
KDOC_RE = re.compile(rb'^/\*\*', re.M)

# The reference's warning texts, mapped to quire's -W names.
CATEGORIES = [
    (r"Function parameter or member '.*' not described", 'undescribed-param'),
    (r"Enum value '.*' not described", 'undescribed-enum'),
    (r'Excess function parameter', 'excess-param'),
    (r'Excess enum value', 'excess-enum'),
    (r'expecting prototype for', 'prototype-mismatch'),
    (r'cannot understand function prototype', 'bad-prototype'),
    (r'Cannot parse struct or union', 'bad-struct'),
    (r'Cannot parse enum', 'bad-enum'),
    (r'Cannot parse typedef', 'bad-typedef'),
    (r'Unrecognized tracepoint format', 'bad-tracepoint'),
    (r"This comment starts with '/\*\*', but isn't", 'not-kernel-doc'),
    (r'missing initial short description', 'missing-short-desc'),
    (r'wrong kernel-doc identifier', 'bad-identifier'),
    (r'Cannot understand ', 'bad-doc-line'),
    (r'Variable macro arguments should be', 'variadic-dots'),
    (r'contents before sections', 'contents-before-sections'),
    (r'suspicious ending line', 'suspicious-end'),
    (r'bad line:', 'bad-line'),
    (r'Incorrect use of kernel-doc format', 'bad-inline-doc'),
    (r'duplicate section name', 'duplicate-section'),
    (r'no structured comments found', 'no-structured-comments'),
    (r'No description found for return value', 'no-return-doc'),
]
REF_DIAG = re.compile(r'^(\S+?):(\d+): (?:warning|error): (.*)$')
QU_DIAG = re.compile(r'^(\S+?):(\d+)(?::\d+)?: (?:warning|error): .*'
                     r'\[-W([a-z0-9-]+)\]$')
NOT_SECTIONS = {'Parameters', 'Definition', 'Members', 'Constants',
                'Syntax'}
# The only section names the reference knows ($doc_sect); a bold line of
# a description that looks like a heading is text, not a section.
SECTION_RE = re.compile(r'(?i)^(description|context|returns?|notes?|'
                        r'examples?)$')


def area_of(path):
    return path.split('/', 1)[0]


def key(path):
    return hashlib.sha1(path.encode()).hexdigest()


def unpack(cache, take_all):
    """Stream the tarball once; keep the sample and scripts/kernel-doc."""
    stamp = os.path.join(cache, '.complete')
    want = 'v%s all=%s' % (SAMPLE_VERSION, take_all)
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    t0 = time.time()
    keep = {}
    rate = {a: min(1.0, 2.0 * TARGETS[a] / COUNTS[a]) for a in TARGETS}
    with tarfile.open(TARBALL, 'r:xz') as tar:
        for m in tar:
            if not m.isfile():
                continue
            parts = m.name.split('/', 1)
            if len(parts) < 2:
                continue
            rel = parts[1]
            if rel == 'scripts/kernel-doc':
                keep[rel] = tar.extractfile(m).read()
                continue
            a = area_of(rel)
            if a not in TARGETS or not rel.endswith(('.c', '.h')):
                continue
            if not take_all and int(key(rel)[:8], 16) / 2**32 >= rate[a]:
                continue
            data = tar.extractfile(m).read()
            if KDOC_RE.search(data):
                keep[rel] = data
    if 'scripts/kernel-doc' not in keep:
        sys.exit('parity: no scripts/kernel-doc in %s' % TARBALL)
    chosen = {'scripts/kernel-doc'}
    by_area = collections.defaultdict(list)
    for rel in keep:
        if rel != 'scripts/kernel-doc':
            by_area[area_of(rel)].append(rel)
    for a, files in by_area.items():
        files.sort(key=key)
        chosen.update(files if take_all else files[:TARGETS[a]])
    for rel in chosen:
        path = os.path.join(cache, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(keep[rel])
    with open(os.path.join(cache, 'sample.txt'), 'w') as f:
        f.write(''.join(r + '\n' for r in sorted(chosen)
                        if r != 'scripts/kernel-doc'))
    with open(stamp, 'w') as f:
        f.write(want)
    print('parity: sampled %d files from %s in %.1f s' %
          (len(chosen) - 1, TARBALL, time.time() - t0))


def list_tree(tree, take_all):
    """The sample (or all) of an unpacked tree, by the same rule."""
    by_area = collections.defaultdict(list)
    areas = TARGETS
    if take_all:
        areas = sorted(d for d in os.listdir(tree)
                       if os.path.isdir(os.path.join(tree, d)) and
                       not d.startswith('.'))
    for a in areas:
        for dirpath, dirnames, filenames in os.walk(os.path.join(tree, a)):
            dirnames.sort()
            for n in filenames:
                if not n.endswith(('.c', '.h')):
                    continue
                p = os.path.join(dirpath, n)
                with open(p, 'rb') as f:
                    if KDOC_RE.search(f.read()):
                        by_area[a].append(os.path.relpath(p, tree))
    files = []
    for a, fs in sorted(by_area.items()):
        fs.sort(key=key)
        files += fs if take_all else fs[:TARGETS.get(a, 0)]
    return sorted(files)


# Reading the reference's reStructuredText ---------------------------------

def rst_param_name(text):
    text = text.strip()
    if text.endswith('...'):
        return text
    m = re.search(r'\(\s*\*+\s*(?:const\s+)?(\w+)\s*\)', text)
    if m:
        return m.group(1)
    text = re.sub(r'\[[^\]]*\]', '', text)
    words = re.findall(r'[\w.]+', text)
    return words[-1] if words else text


def parse_rst(text):
    items = []
    cur = None
    block = None
    lines = text.split('\n')
    for i, line in enumerate(lines):
        m = re.match(r'^\.\. c:(function|macro|struct|union|enum|type):: '
                     r'(.*)$', line)
        if m:
            kind, rest = m.groups()
            if kind == 'function':
                name = re.match(r'.*?(\w+)\s*\(', rest)
                name = name.group(1) if name else rest
            else:
                name = rest.strip()
            kind = {'type': 'typedef'}.get(kind, kind)
            if kind == 'macro' and i + 2 < len(lines) and \
                    lines[i + 2].startswith('   **Typedef**'):
                kind = 'typedef'
            cur = {'kind': kind, 'name': name, 'params': [],
                   'sections': []}
            items.append(cur)
            block = None
            continue
        m = re.match(r'^\.\. _(.*):$', line)
        if m and i + 2 < len(lines) and lines[i + 2] == '**%s**' % m.group(1):
            cur = {'kind': 'doc', 'name': m.group(1), 'params': [],
                   'sections': []}
            items.append(cur)
            block = 'doc-title'
            continue
        if cur is None:
            continue
        m = re.match(r'^\*\*(.+)\*\*$', line)
        if m and (i == 0 or lines[i - 1] == '') and \
                (i + 1 >= len(lines) or lines[i + 1] == ''):
            title = m.group(1)
            if block == 'doc-title':
                block = 'doc'
                continue
            if title in NOT_SECTIONS:
                block = title
            elif SECTION_RE.match(title):
                block = 'section'
                cur['sections'].append(title)
            continue
        m = re.match(r'^``(.*)``$', line)
        if m and block in ('Parameters', 'Members', 'Constants'):
            p = m.group(1)
            if block == 'Parameters' and cur['kind'] in ('function',
                                                         'typedef'):
                p = rst_param_name(p)
            cur['params'].append(p)
    return items


def norm_params(names):
    out = []
    for n in names:
        if n.startswith('{unnamed_'):
            continue
        # A named variadic argument ("args...") is quire's parameter
        # "..." with the type "args..."; compare both as "...".
        if n.endswith('...'):
            n = '...'
        out.append(n)
    if out == ['void']:
        out = []
    return out


def ref_category(msg):
    for pat, name in CATEGORIES:
        if re.search(pat, msg):
            return name
    return 'other'


# Running both --------------------------------------------------------------

def run_ref(root, rel):
    p = subprocess.run(['perl', 'scripts/kernel-doc', '-rst',
                        '-sphinx-version', '5.3.0', rel], cwd=root,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return (rel, p.stdout.decode('utf-8', 'replace'),
            p.stderr.decode('utf-8', 'replace'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('quire')
    ap.add_argument('cache')
    ap.add_argument('--tree')
    ap.add_argument('--all', action='store_true')
    ap.add_argument('--report')
    args = ap.parse_args()
    quire = os.path.abspath(args.quire)

    if args.tree:
        root = args.tree
        files = list_tree(root, args.all)
    else:
        if not os.path.exists(TARBALL):
            print('parity: skipped: %s is absent (apt-get install '
                  'linux-source-6.1)' % TARBALL)
            return 77
        root = args.cache
        os.makedirs(root, exist_ok=True)
        unpack(root, args.all)
        with open(os.path.join(root, 'sample.txt')) as f:
            files = f.read().split()
    per_area = collections.Counter(area_of(f) for f in files)
    print('parity: %d files (%s)' % (len(files), ', '.join(
        '%s %d' % kv for kv in sorted(per_area.items()))))

    t0 = time.time()
    ref = {}
    ref_warn = collections.Counter()
    jobs = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for rel, out, err in ex.map(lambda r: run_ref(root, r), files):
            ref[rel] = parse_rst(out)
            for line in err.splitlines():
                m = REF_DIAG.match(line)
                if m:
                    ref_warn[ref_category(m.group(3))] += 1
                elif line.startswith('Error: Cannot open'):
                    ref_warn['unreadable'] += 1
    t_ref = time.time() - t0

    t0 = time.time()
    p = subprocess.run([quire, 'extract', '--json'] + files, cwd=root,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t_qu = time.time() - t0
    if p.returncode not in (0, 1):
        print('parity: quire extract failed (%d):\n%s' %
              (p.returncode, p.stderr.decode('utf-8', 'replace')[-2000:]))
        return 1
    qu = collections.defaultdict(list)
    for line in p.stdout.decode('utf-8', 'replace').splitlines():
        o = json.loads(line)
        qu[o['file']].append({
            'kind': o['kind'], 'name': o['name'],
            'params': [x['name'] for x in o.get('params') or []],
            'sections': [s['title'] for s in o.get('sections') or []],
        })
    qu_warn = collections.Counter()
    for line in p.stderr.decode('utf-8', 'replace').splitlines():
        m = QU_DIAG.match(line)
        if m:
            qu_warn[m.group(3)] += 1

    # Items, matched per file by (kind, name) in order.
    total = agree = 0
    ref_kinds = collections.Counter()
    qu_kinds = collections.Counter()
    causes = collections.Counter()
    report = []
    for rel in files:
        r_items, q_items = ref[rel], qu.get(rel, [])
        for it in r_items:
            ref_kinds[it['kind']] += 1
        for it in q_items:
            qu_kinds[it['kind']] += 1
        sm = difflib.SequenceMatcher(
            None, [(i['kind'], i['name']) for i in r_items],
            [(i['kind'], i['name']) for i in q_items], autojunk=False)
        matched = {}
        for a, b, n in sm.get_matching_blocks():
            for k in range(n):
                matched[a + k] = b + k
        for ai, it in enumerate(r_items):
            total += 1
            if ai not in matched:
                causes['missing or other kind/name'] += 1
                report.append('%s: %s %s: not found in quire' %
                              (rel, it['kind'], it['name']))
                continue
            q = q_items[matched[ai]]
            bad = []
            if norm_params(it['params']) != norm_params(q['params']):
                bad.append('params %s vs %s' % (norm_params(it['params']),
                                                norm_params(q['params'])))
                causes['parameter/member names'] += 1
            if it['kind'] != 'doc' and it['sections'] != q['sections']:
                bad.append('sections %s vs %s' % (it['sections'],
                                                  q['sections']))
                causes['section titles'] += 1
            if bad:
                report.append('%s: %s %s: %s' % (rel, it['kind'],
                                                  it['name'],
                                                  '; '.join(bad)))
            else:
                agree += 1
        extra = len(q_items) - len(matched)
        if extra > 0:
            causes['extra in quire'] += extra
            for bi, q in enumerate(q_items):
                if bi not in matched.values():
                    report.append('%s: %s %s: only in quire' %
                                  (rel, q['kind'], q['name']))

    ratio = agree / total if total else 1.0
    print('items: %d of %d reference items agree (%.2f%%; needed %.0f%%)'
          % (agree, total, 100 * ratio, 100 * ITEM_AGREEMENT))
    print('  %-10s %8s %8s' % ('kind', 'kernel', 'quire'))
    for k in sorted(set(ref_kinds) | set(qu_kinds)):
        print('  %-10s %8d %8d' % (k, ref_kinds[k], qu_kinds[k]))
    for c, n in causes.most_common():
        print('  disagreement: %s: %d' % (c, n))

    failed = ratio < ITEM_AGREEMENT
    print('warnings per category:')
    print('  %-26s %8s %8s' % ('category', 'kernel', 'quire'))
    for c in sorted(set(ref_warn) | set(qu_warn)):
        r, q = ref_warn[c], qu_warn[c]
        ok = abs(r - q) <= max(WARN_SLACK, WARN_TOLERANCE * r)
        failed |= not ok
        print('  %-26s %8d %8d%s' % (c, r, q, '' if ok else '  FAIL'))
    print('time: kernel-doc -rst %.1f s (%d processes), quire extract '
          '%.2f s' % (t_ref, jobs, t_qu))
    if args.report:
        with open(args.report, 'w') as f:
            f.write('\n'.join(report) + '\n')
    else:
        for line in report[:40]:
            print('  ' + line)
        if len(report) > 40:
            print('  ... %d more (--report FILE lists them all)' %
                  (len(report) - 40))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
