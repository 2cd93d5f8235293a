#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quire's reST reader on the whole Documentation/ of linux-source-6.1.

Unpacks Documentation/ from /usr/src/linux-source-6.1.tar.xz into WORKDIR
(once), then:

  * parses every .rst file with rst-dump under a memory limit (1 GiB) and
    a time limit; fails on any crash, on a file without output, or when
    one file takes more than 2 s;
  * when python3-docutils is installed, parses every file with docutils'
    parser (test/rst/docutils_tree.py, cached in WORKDIR by docutils'
    version and the script's hash) and compares file by file:
      - identical: the two pseudo-XML dumps are equal, byte for byte;
      - structure: the sections (title text and ids, in order) and the
        count of every element kind are equal;
      - nodes: over all files and kinds, sum of min(quire, docutils) over
        sum of max(quire, docutils);
      - sections: docutils' (title, ids) pairs that quire also has.
    Files docutils itself fails on are left out. Prints the figures and
    the element kinds that differ most, and fails when structure
    the agreement falls below the THRESHOLD_* figures (measured, see
    docs/rst.md).

Skips (77) without the tarball. usage: kernel.py RST_DUMP WORKDIR [-v]
"""
import hashlib
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pxml  # noqa: E402

TARBALL = '/usr/src/linux-source-6.1.tar.xz'
TOP = 'linux-source-6.1'
# Measured on linux-source-6.1 with docutils 0.19: 3,183 of 3,183 files
# identical. The margin allows a docutils update a handful of changed files.
THRESHOLD_IDENTICAL = 99.5
THRESHOLD_STRUCTURE = 99.5
THRESHOLD_NODES = 99.9
MAX_FILE_MS = 2000.0
MEMORY = 1 << 30


def unpack(work):
    doc = os.path.join(work, TOP, 'Documentation')
    stamp = os.path.join(work, '.unpacked')
    if not os.path.exists(stamp):
        os.makedirs(work, exist_ok=True)
        subprocess.run(['tar', '-xJf', TARBALL, '-C', work, '--wildcards',
                        TOP + '/Documentation/*'], check=True)
        open(stamp, 'w').close()
    return doc


def rst_files(doc):
    out = []
    for dirpath, dirnames, filenames in os.walk(doc):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith('.rst'):
                out.append(os.path.join(dirpath, f))
    return sorted(out)


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def no_limit():
    pass


def memory_limit(exe):
    """The address-space limit, unless ASan (which reserves terabytes of
    shadow memory) is linked in; then its own checks stand in."""
    with open(exe, 'rb') as f:
        return no_limit if b'__asan_init' in f.read() else limit


def run_quire(dump, doc, files, out):
    slow = 0.0
    slow_path = '?'
    for k in range(0, len(files), 500):
        chunk = files[k:k + 500]
        p = subprocess.run([dump, '-o', out, '-r', doc] + chunk,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           preexec_fn=memory_limit(dump), timeout=600)
        if p.returncode != 0:
            print('rst-dump failed (status %d) on files %d..%d' %
                  (p.returncode, k, k + len(chunk)))
            return None
        for line in p.stdout.decode().splitlines():
            if line.startswith('slowest: '):
                ms = float(line.split()[1])
                if ms > slow:
                    slow = ms
                    slow_path = line.split(None, 3)[3]
    print('quire: %d files parsed, slowest %.1f ms (%s)' %
          (len(files), slow, os.path.relpath(slow_path, doc) if slow_path != '?' else slow_path))
    return slow


def run_docutils(doc, files, work):
    try:
        import docutils
    except ImportError:
        return None
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          'docutils_tree.py')
    table = os.path.join(os.path.dirname(script), '..', '..', 'lib', 'rst',
                         'directives.def')
    h = hashlib.sha1()
    for p in (script, table):
        with open(p, 'rb') as f:
            h.update(f.read())
    key = '%s-%s' % (docutils.__version__, h.hexdigest()[:12])
    out = os.path.join(work, 'docutils-' + key)
    if not os.path.exists(os.path.join(out, '.done')):
        t0 = time.time()
        for k in range(0, len(files), 1000):
            subprocess.run([sys.executable, script, '--each', out, doc] +
                           files[k:k + 1000], check=True)
        open(os.path.join(out, '.done'), 'w').close()
        print('docutils: %d files parsed in %.0f s (cached in %s)' %
              (len(files), time.time() - t0, out))
    return out


def read(p):
    try:
        with open(p, encoding='utf-8', errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return None


def main():
    dump, work = sys.argv[1], sys.argv[2]
    verbose = '-v' in sys.argv[3:]
    if not os.path.exists(TARBALL):
        print('skip: %s is absent (apt-get install linux-source-6.1)' % TARBALL)
        return 77
    doc = unpack(work)
    files = rst_files(doc)
    qout = os.path.join(work, 'quire')
    slow = run_quire(dump, doc, files, qout)
    if slow is None:
        return 1
    problems = []
    if slow > MAX_FILE_MS:
        problems.append('a file took %.0f ms (limit %.0f)' % (slow, MAX_FILE_MS))
    missing = [f for f in files
               if not os.path.exists(os.path.join(qout, os.path.relpath(f, doc) + '.xml'))]
    if missing:
        problems.append('%d files without output, e.g. %s' % (len(missing), missing[0]))
    dout = run_docutils(doc, files, work)
    if dout is None:
        print('docutils is not installed: comparison skipped')
    else:
        same = struct = compared = 0
        nmin = nmax = 0
        secs_d = secs_both = 0
        kinds = {}
        worst = []
        for f in files:
            rel = os.path.relpath(f, doc) + '.xml'
            d = read(os.path.join(dout, rel))
            q = read(os.path.join(qout, rel))
            if d is None or q is None or d.startswith('FAILED:'):
                continue
            compared += 1
            # the document's source attribute names the path as given
            d = d.split('\n', 1)[1] if '\n' in d else ''
            q = q.split('\n', 1)[1] if '\n' in q else ''
            if d == q:
                same += 1
            dc, ds = pxml.summary(d)
            qc, qs = pxml.summary(q)
            if dc == qc and ds == qs:
                struct += 1
            else:
                worst.append((sum(abs(dc.get(k, 0) - qc.get(k, 0))
                                  for k in set(dc) | set(qc)), rel))
            for k in set(dc) | set(qc):
                a, b = dc.get(k, 0), qc.get(k, 0)
                nmin += min(a, b)
                nmax += max(a, b)
                if a != b:
                    kinds[k] = kinds.get(k, 0) + abs(a - b)
            secs_d += len(ds)
            pool = list(qs)
            for s in ds:
                if s in pool:
                    pool.remove(s)
                    secs_both += 1
        pct = lambda a, b: 100.0 * a / b if b else 100.0
        print('compared with docutils: %d files' % compared)
        print('  identical pseudo-XML: %d (%.1f%%)' % (same, pct(same, compared)))
        print('  same structure:       %d (%.1f%%)' % (struct, pct(struct, compared)))
        print('  nodes:                %.2f%% (%d of %d)' % (pct(nmin, nmax), nmin, nmax))
        print('  sections (title+id):  %.2f%% (%d of %d)' % (pct(secs_both, secs_d), secs_both, secs_d))
        print('  kinds that differ most: ' + ', '.join(
            '%s %d' % kv for kv in sorted(kinds.items(), key=lambda kv: -kv[1])[:12]))
        worst.sort(reverse=True)
        for w, rel in worst[:20 if verbose else 5]:
            print('  differs: %s (%d nodes)' % (rel[:-4], w))
        if pct(same, compared) < THRESHOLD_IDENTICAL:
            problems.append('identical files %.1f%% < %.1f%%' %
                            (pct(same, compared), THRESHOLD_IDENTICAL))
        if pct(struct, compared) < THRESHOLD_STRUCTURE:
            problems.append('structure agreement %.1f%% < %.1f%%' %
                            (pct(struct, compared), THRESHOLD_STRUCTURE))
        if pct(nmin, nmax) < THRESHOLD_NODES:
            problems.append('node agreement %.2f%% < %.2f%%' %
                            (pct(nmin, nmax), THRESHOLD_NODES))
    for p in problems:
        print('FAIL: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
