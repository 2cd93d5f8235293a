#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quire man on linux-source-6.1, against mandoc, groff and kernel-doc.

The C files, scripts/kernel-doc and MAINTAINERS are unpacked once from
the Debian tarball (/usr/src/linux-source-6.1.tar.xz, or
$QUIRE_LINUX_TARBALL) into CACHE and reused. Without the tarball the
test skips (77). Then

  * `quire man` writes the pages of every file with a line starting
    "/**"; `mandoc -Tlint` must print nothing for any of them, and
    `groff -ww -man -Tutf8` and `man -l` nothing on stderr for a sample;
  * on a fixed sample of 300 of those files, the set of pages must equal
    the set of .TH names `scripts/kernel-doc -man` writes for them
    (the third field, which scripts/split-man.pl names its files by),
    with the documented differences: "struct foo" is struct_foo.9;
    DOC: blocks, which the reference writes all to one "Kernel API" page,
    have none; variables, which 6.1's kernel-doc cannot parse (it warns),
    have one. The reference's names are computed once and cached.

usage: kernel.py QUIRE CACHE
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

TARBALL = os.environ.get('QUIRE_LINUX_TARBALL',
                         '/usr/src/linux-source-6.1.tar.xz')
SAMPLE = 300
EPOCH = '1670716800'
VERSION = '1'


def unpack(cache):
    """The tree's C files, kernel-doc and MAINTAINERS, unpacked once."""
    tree = os.path.join(cache, 'linux-source-6.1')
    mark = os.path.join(cache, 'unpacked-' + VERSION)
    if os.path.exists(mark):
        return tree
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    subprocess.run(['tar', '-xJf', TARBALL, '-C', cache, '--wildcards',
                    '*.c', '*.h', '*/scripts/kernel-doc',
                    '*/scripts/split-man.pl', '*/MAINTAINERS'], check=True)
    open(mark, 'w').close()
    return tree


def doc_files(tree):
    """Every .c and .h file with a line starting "/**", sorted."""
    p = subprocess.run(['grep', '-rl', '--include=*.c', '--include=*.h',
                        '^/\\*\\*', '.'], cwd=tree, stdout=subprocess.PIPE,
                       check=True)
    return sorted(f[2:] for f in p.stdout.decode().split('\n') if f)


def sample(files):
    key = lambda f: hashlib.sha1(f.encode()).hexdigest()
    return sorted(sorted(files, key=key)[:SAMPLE])


def quire_man(quire, tree, out, files):
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    p = subprocess.run([quire, 'man', '-q', '-o', out] + files, cwd=tree,
                       env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.exit('quire man failed: %s' % p.stderr.decode()[-2000:])
    return sorted(os.listdir(os.path.join(out, 'man9')))


def reference_names(tree, cache, files):
    """The .TH names kernel-doc -man writes, as file names; cached."""
    digest = hashlib.sha1('\n'.join(files).encode()).hexdigest()[:12]
    path = os.path.join(cache, 'kernel-doc-man-%s.txt' % digest)
    if not os.path.exists(path):
        env = dict(os.environ, KBUILD_BUILD_TIMESTAMP='@' + EPOCH)
        p = subprocess.run(['perl', 'scripts/kernel-doc', '-man'] + files,
                           cwd=tree, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        names = set()
        for line in p.stdout.decode('utf-8', 'replace').split('\n'):
            # split-man.pl: /^\.TH \"[^\"]*\" 9 \"([^\"]*)\"/
            if line.startswith('.TH "'):
                parts = line.split('"')
                if len(parts) > 3 and parts[2].strip() == '9':
                    names.add(parts[3])
        with open(path + '.tmp', 'w') as f:
            f.write(''.join(n + '\n' for n in sorted(names)))
        os.rename(path + '.tmp', path)
    with open(path) as f:
        return [n for n in f.read().split('\n') if n]


def as_page(name):
    """The reference's .TH name as quire's file name, or None."""
    if name == 'Kernel API':
        return None  # DOC: blocks, all on one page in the reference
    for tag in ('struct ', 'union ', 'enum '):
        if name.startswith(tag):
            return tag[:-1] + '_' + name[len(tag):] + '.9'
    return name + '.9'


def main():
    quire, cache = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not os.path.exists(TARBALL):
        print('skip: %s not found (apt install linux-source-6.1)' % TARBALL)
        return 77
    for tool in ('mandoc', 'groff', 'perl'):
        if not shutil.which(tool):
            print('skip: %s is not installed' % tool)
            return 77
    tree = unpack(cache)
    files = doc_files(tree)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'all')
        pages = quire_man(quire, tree, out, files)
        print('quire man: %d pages from %d files' % (len(pages), len(files)))
        if len(pages) < 50000:
            problems.append('only %d pages for the whole tree' % len(pages))
        man9 = os.path.join(out, 'man9')
        lint = []
        for i in range(0, len(pages), 4000):
            p = subprocess.run(['mandoc', '-Tlint'] + pages[i:i + 4000],
                               cwd=man9, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            lint += [l for l in p.stdout.decode('utf-8', 'replace')
                     .split('\n') if l]
        print('mandoc -Tlint: %d messages' % len(lint))
        if lint:
            problems.append('mandoc -Tlint:\n' + '\n'.join(lint[:30]))
        some = sample(pages)[:100]
        for name in some:
            p = subprocess.run(['groff', '-ww', '-man', '-Tutf8', '-z', name],
                               cwd=man9, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if p.stderr:
                problems.append('groff -ww %s: %s' %
                                (name, p.stderr.decode()[:500]))
        if shutil.which('man'):
            env = dict(os.environ, MANWIDTH='80', MAN_KEEP_FORMATTING='0')
            for name in some[:20]:
                p = subprocess.run(['man', '--warnings', '-l', name],
                                   cwd=man9, env=env,
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
                if p.stderr or p.returncode or not p.stdout:
                    problems.append('man -l %s: %s' %
                                    (name, p.stderr.decode()[:500]))
        print('groff -ww: %d pages, man -l: 20 pages' % len(some))

        # the set of pages of a sample, against kernel-doc -man
        files300 = sample(files)
        ref = reference_names(tree, cache, files300)
        want = set(filter(None, (as_page(n) for n in ref)))
        got = set(quire_man(quire, tree, os.path.join(tmp, 's'), files300))
        p = subprocess.run([quire, 'extract', '--json'] + files300, cwd=tree,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        variables = set(json.loads(l)['name'] + '.9'
                        for l in p.stdout.decode().split('\n')
                        if l and json.loads(l)['kind'] == 'var')
        print('variables (pages only quire writes): %d' %
              len(got & variables - want))
        got -= variables - want
        print('sample of %d files: kernel-doc -man %d names, quire %d pages'
              % (len(files300), len(want), len(got)))
        for n in sorted(want - got)[:30]:
            problems.append('kernel-doc -man writes %s, quire does not' % n)
        for n in sorted(got - want)[:30]:
            problems.append('quire writes %s, kernel-doc -man does not' % n)
    for pr in problems:
        print('FAIL ' + pr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
