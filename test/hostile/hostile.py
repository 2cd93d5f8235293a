#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile input: trees that try to make quire lose a file, read outside
the source tree, hang, or blow up, built with `quire build`.

Each case is a function below that lays out a tree in a fresh folder and
returns how to build it. The runner then checks, for every case:

  - the exit status (the case says which);
  - the diagnostics, exactly as printed, against expect/CASE.diag (absent:
    none), with paths relative to the case's folder;
  - that nothing outside OUT changed: every file, folder, link and FIFO
    of the case's folder (the input tree and its neighbours) is hashed
    before and after, by path, type, mode and content;
  - whatever else the case checks on the site (its own function).

expect/CASE.xfail marks a known failure and says why; the run fails as
soon as such a case passes. QUIRE_REGEN=1 rewrites the .diag files;
review them with git diff. Memory is bounded with RLIMIT_AS (ulimit -v)
on every build, except under AddressSanitizer, whose shadow memory needs
terabytes of address space.

usage: hostile.py QUIRE EXPECT_DIR [CASE...]
"""
import hashlib
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

QUIRE = None
TIMEOUT = 300
MEM_LIMIT = 2 << 30     # bytes of address space for one build


def asan(binary):
    with open(binary, 'rb') as f:
        return b'__asan_init' in f.read()


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


class Run:
    """What one build gave."""

    def __init__(self, status, stderr, elapsed):
        self.status = status
        self.stderr = stderr
        self.elapsed = elapsed


def quire(cwd, *args, user=None, timeout=TIMEOUT):
    env = dict(os.environ, QUIRE_NO_PROGRESS='1')
    cmd = [QUIRE] + list(args)
    if user:
        cmd = ['setpriv', '--reuid=' + user, '--regid=nogroup',
               '--clear-groups', '--'] + cmd
    t = time.monotonic()
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True,
                       timeout=timeout,
                       preexec_fn=None if ASAN else limit_memory)
    return Run(r.returncode, r.stderr.decode('utf-8', 'replace'),
               time.monotonic() - t)


def build(cwd, src, out='out', *more, **kw):
    return quire(cwd, 'build', src, '-o', out, '--quiet', *more, **kw)


# Laying out trees ---------------------------------------------------------

def write(root, rel, data, mode=None):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)
    if mode is not None:
        os.chmod(path, mode)
    return path


def item(name, brief='a function'):
    return ('/**\n * %s() - %s\n * @x: a value\n *\n * Return: @x.\n */\n'
            'int %s(int x);\n\n' % (name, brief, name))


def docs(root, rel, pages, srctree='..', extra=''):
    """A docs root at ROOT/REL with quire.yml and PAGES {name: text}."""
    write(root, rel + '/quire.yml',
          'title: T\nsrctree: %s\n%s' % (srctree, extra))
    for name, text in pages.items():
        write(root, rel + '/' + name, text)


def kdoc(path, *opts):
    return '```{kernel-doc} %s\n%s```\n\n' % (
        path, ''.join(o + '\n' for o in opts))


def page(out, rel):
    p = os.path.join(out, rel)
    if not os.path.exists(p):
        return None
    with open(p, 'rb') as f:
        return f.read()


def ids(html):
    return set(re.findall(rb'id="([^"]+)"', html or b''))


# Hashing everything but OUT ------------------------------------------------

def snapshot(root, outs):
    """Every entry below ROOT but the OUT folders, by path."""
    skip = set(os.path.normpath(os.path.join(root, o)) for o in outs)
    state = {}

    def entry(path):
        st = os.lstat(path)
        rel = os.path.relpath(path, root)
        if stat.S_ISLNK(st.st_mode):
            state[rel] = ('link', os.readlink(path))
        elif stat.S_ISREG(st.st_mode):
            h = hashlib.sha256()
            try:
                with open(path, 'rb') as f:
                    for chunk in iter(lambda: f.read(1 << 20), b''):
                        h.update(chunk)
            except PermissionError:
                h.update(b'unreadable')
            state[rel] = ('file', st.st_mode, h.hexdigest())
        elif stat.S_ISDIR(st.st_mode):
            state[rel] = ('dir', st.st_mode)
        else:
            state[rel] = ('special', st.st_mode)
        return st

    def walk(d):
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.normpath(p) in skip:
                continue
            # a build's own neighbours of OUT: the work folder it swaps
            # in (.OUT.quire-new-PID) and the cache (.quire-cache)
            if any(os.path.dirname(s) == d and (
                    name.startswith('.%s.quire-new-' % os.path.basename(s))
                    or name == '.quire-cache') for s in skip):
                continue
            st = entry(p)
            if stat.S_ISDIR(st.st_mode):
                walk(p)

    walk(root)
    return state


def changes(before, after):
    diffs = []
    for k in sorted(set(before) | set(after)):
        if before.get(k) != after.get(k):
            what = ('removed' if k not in after else
                    'added' if k not in before else 'changed')
            diffs.append('%s %s' % (what, k))
    return diffs


# Cases ---------------------------------------------------------------------
# Each takes its folder and returns (runs, outs, check): runs is a list of
# (name, function returning a Run, expected status); outs the OUT folders
# the builds may write; check(root) returns a list of problems.

CASES = {}


def case(fn):
    CASES[fn.__name__.replace('_', '-')] = fn
    return fn


def secret(root):
    write(root, 'elsewhere/secret.h', item('secret', 'must not be shown'))


@case
def escape_dotdot(root):
    """{kernel-doc} ../../../../elsewhere/secret.h from a deep srctree."""
    secret(root)
    write(root, 'w/x/y/src/ok.h', item('ok'))
    docs(root, 'w/x/y/src/docs', {'index.md': '# Home\n\n' + kdoc(
        '../../../../elsewhere/secret.h') + kdoc('ok.h')})

    def check(root):
        html = page(os.path.join(root, 'out'), 'index.html')
        if html is None or b'c.ok' not in ids(html):
            return ['ok.h is not on the page']
        if b'secret' in html:
            return ['secret.h reached the output']
        return []
    return ([('build', lambda: build(root, 'w/x/y/src/docs'), 1)],
            ['out'], check)


def refused_read(root, target, name):
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc(target) +
                            kdoc('ok.h')})

    def check(root):
        html = page(os.path.join(root, 'out'), 'index.html') or b''
        bad = [] if b'c.ok' in ids(html) else ['ok.h is not on the page']
        if name.encode() in html:
            bad.append('%s reached the output' % name)
        return bad
    return ([('build', lambda: build(root, 'src/docs'), 1)], ['out'], check)


@case
def escape_passwd(root):
    """../../../etc/passwd, with enough .. to reach / from anywhere."""
    return refused_read(root, '../' * 40 + 'etc/passwd', 'root:')


@case
def escape_proc(root):
    """/proc/self/environ: absolute, outside, and a /proc file."""
    return refused_read(root, '/proc/self/environ', 'PATH=')


@case
def escape_absolute_inside(root):
    """An absolute path and a .. that stay inside the tree are fine."""
    write(root, 'src/lib/a.h', item('in_a'))
    write(root, 'src/b.h', item('in_b'))
    absolute = os.path.join(root, 'src/lib/a.h')
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc(absolute) +
                            kdoc('lib/../b.h')})

    def check(root):
        got = ids(page(os.path.join(root, 'out'), 'index.html'))
        return [] if {b'c.in_a', b'c.in_b'} <= got else [
            'the items of a.h and b.h are not on the page']
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'], check)


@case
def fifo(root):
    """A FIFO named by a directive, and FIFOs the walk meets: never opened
    (open() of a FIFO blocks until a writer comes)."""
    write(root, 'src/ok.h', item('ok'))
    os.mkfifo(os.path.join(root, 'src/fifo.h'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('fifo.h') +
                            kdoc('ok.h')})
    os.mkfifo(os.path.join(root, 'src/docs/pipe.md'))
    os.mkfifo(os.path.join(root, 'src/docs/pipe.png'))
    write(root, 'zero/a.c', item('za'))
    os.mkfifo(os.path.join(root, 'zero/b.c'))
    return ([('configured', lambda: build(root, 'src/docs', timeout=60), 1),
             ('zero-config', lambda: build(root, 'zero', 'zout',
                                           timeout=60), 1)],
            ['out', 'zout'], lambda root: [])


@case
def symlink_out(root):
    """Links leading out of srctree: named by a directive, and met by the
    walk (a page, a source, an image)."""
    secret(root)
    write(root, 'src/ok.h', item('ok'))
    os.symlink('../elsewhere/secret.h', os.path.join(root, 'src/link.h'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('link.h') +
                            kdoc('ok.h')})
    write(root, 'elsewhere/page.md', '# Not mine\n')
    write(root, 'elsewhere/photo.png', b'\x89PNG\r\n\x1a\n')
    os.symlink('../../elsewhere/page.md',
               os.path.join(root, 'src/docs/page.md'))
    os.symlink('../../elsewhere/photo.png',
               os.path.join(root, 'src/docs/photo.png'))
    write(root, 'zero/a.c', item('za'))
    os.symlink('../elsewhere/secret.h', os.path.join(root, 'zero/s.h'))

    def check(root):
        bad = []
        for out in ('out', 'zout'):
            for d, _, files in os.walk(os.path.join(root, out)):
                for f in files:
                    if b'must not be shown' in page(d, f) or f in (
                            'page.html', 'photo.png', 's.h.html'):
                        bad.append('%s/%s comes from outside' % (out, f))
        return bad
    return ([('configured', lambda: build(root, 'src/docs'), 1),
             ('zero-config', lambda: build(root, 'zero', 'zout'), 1)],
            ['out', 'zout'], check)


@case
def symlink_loop(root):
    """Links in a loop: a diagnostic, not a hang."""
    write(root, 'src/ok.h', item('ok'))
    os.symlink('loop2.h', os.path.join(root, 'src/loop1.h'))
    os.symlink('loop1.h', os.path.join(root, 'src/loop2.h'))
    os.symlink('.', os.path.join(root, 'src/self'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('loop1.h') +
                            kdoc('self/self/self/ok.h')})
    return ([('configured', lambda: build(root, 'src/docs', timeout=60), 1),
             ('zero-config', lambda: build(root, 'src', 'zout',
                                           timeout=60), 1)],
            ['out', 'zout'], lambda root: [])


@case
def binary_nul(root):
    """NUL bytes: the file is reported and skipped, the rest builds."""
    write(root, 'src/a.c', item('fa'))
    write(root, 'src/b.c', item('fb').encode() + b'\0\0\x01\x02' * 100)
    write(root, 'src/c.h', b'\x7fELF\x02\x01\x01\0' + os.urandom(0) +
          bytes(range(256)) * 64)

    def check(root):
        got = ids(page(os.path.join(root, 'out'), 'a.c.html'))
        return [] if b'c.fa' in got else ['a.c is not on its page']
    return ([('build', lambda: build(root, 'src'), 1)], ['out'], check)


def valid_utf8_site(out):
    bad = []
    for d, _, files in os.walk(out):
        for f in files:
            if f.endswith('.html'):
                try:
                    page(d, f).decode('utf-8')
                except UnicodeDecodeError as e:
                    bad.append('%s is not UTF-8: %s' % (f, e))
    return bad


@case
def invalid_utf8(root):
    """Bad bytes in a DOC title, a brief, a parameter type and a page: the
    HTML shows U+FFFD and is valid UTF-8."""
    write(root, 'src/x.c', b'/**\n * DOC: Bad \xff\xfe title\n *\n'
          b' * Text \xc3.\n */\n\n/**\n * f() - brief \xe2\x82\n'
          b' * @a: a \xf0\n */\nvoid f(int \xc3 a);\n')
    write(root, 'src/README.md', b'# Home \xff\n\nText \xfe.\n')

    def check(root):
        out = os.path.join(root, 'out')
        bad = valid_utf8_site(out)
        html = page(out, 'x.c.html') or b''
        if html.count('\ufffd'.encode()) < 4:
            bad.append('x.c.html has %d U+FFFD, expected 4 or more' %
                       html.count('\ufffd'.encode()))
        return bad
    return ([('build', lambda: build(root, 'src'), 0)], ['out'], check)


@case
def crlf_cr(root):
    """CRLF and lone CR line ends: the items of the LF version."""
    text = item('f1') + item('f2')
    write(root, 'src/lf.c', text)
    write(root, 'src/crlf.c', text.replace('\n', '\r\n'))
    write(root, 'src/cr.c', text.replace('\n', '\r'))
    write(root, 'src/README.md', '# Home\r\n\r\nText.\r\n')

    def check(root):
        out = os.path.join(root, 'out')
        bad = []
        for f in ('lf.c', 'crlf.c'):
            if not {b'c.f1', b'c.f2'} <= ids(page(out, f + '.html')):
                bad.append('%s: expected f1 and f2' % f)
        return bad
    return ([('build', lambda: build(root, 'src'), 0)], ['out'], check)


@case
def unterminated(root):
    """/** at the very end of a file, with and without text."""
    write(root, 'src/a.c', item('fa') + '/**')
    write(root, 'src/b.c', item('fb') + '/**\n * g() - never closed\n')
    return ([('build', lambda: build(root, 'src'), 0)], ['out'],
            lambda root: [] if b'c.fa' in ids(page(
                os.path.join(root, 'out'), 'a.c.html')) else
            ['a.c lost its item'])


@case
def comment_in_string(root):
    """/** inside string and character literals and #if 0."""
    write(root, 'src/s.c',
          'static const char *s = "/** f() - not a comment */";\n'
          "static char c = '/'; static const char *t = \"*/ /**\";\n"
          '#if 0\n' + item('dead') + '#endif\n' + item('live'))

    def check(root):
        got = ids(page(os.path.join(root, 'out'), 's.c.html'))
        bad = [] if b'c.live' in got else ['live() is not on the page']
        if b'c.f' in got:
            bad.append('a string literal became a comment')
        return bad
    return ([('build', lambda: build(root, 'src'), 0)], ['out'], check)


@case
def big_files(root):
    """A 50 MB source file (a generated register header: defines, with a
    documented macro every 2,000 lines) and a 1 MB comment, in bounded
    memory."""
    n = 0
    with open(write(root, 'src/big.h', ''), 'w') as f:
        size = 0
        while size < 50 * 10**6:
            block = ('/**\n * REG_%d - register block %d\n */\n'
                     '#define REG_%d 0x%08x\n' % (n, n, n, n) +
                     ''.join('#define REG_%d_F%d 0x%08x\n' % (n, i, i)
                             for i in range(2000)))
            f.write(block)
            size += len(block)
            n += 1
    write(root, 'src/long.c', '/**\n * long_one() - long\n *\n' +
          ' * word word word word word word word word word word\n' *
          20000 + ' */\nvoid long_one(void);\n')

    def check(root):
        out = os.path.join(root, 'out')
        bad = []
        if os.path.getsize(os.path.join(root, 'src/big.h')) < 50 * 10**6:
            bad.append('big.h is not 50 MB')
        if b'c.REG_%d' % (n - 1) not in ids(page(out, 'big.h.html')):
            bad.append('big.h lost its last item')
        if b'c.long_one' not in ids(page(out, 'long.c.html')):
            bad.append('long.c lost its item')
        return bad
    return ([('build', lambda: build(root, 'src'), 0)], ['out'], check)


@case
def deep_markdown(root):
    """10,000-deep nested lists and block quotes in a page."""
    lists = ''.join('  ' * i + '- level %d\n' % i for i in range(10000))
    quotes = ''.join('>' * i + ' quote %d\n' % i for i in range(1, 10001))
    docs(root, 'docs', {'index.md': '# Home\n\n' + lists + '\n' + quotes +
                        '\nafter\n'}, srctree='.')

    def check(root):
        html = page(os.path.join(root, 'out'), 'index.html')
        return [] if html and b'after' in html else [
            'the text after the nesting is missing']
    return ([('build', lambda: build(root, 'docs'), 0)], ['out'], check)


def headings_page(root, rel, n):
    docs(root, rel, {'index.md': '# Home\n\n' + '## Same\n\ntext\n\n' * n},
         srctree='.')


@case
def identical_headings(root):
    """10,000 identical headings: the same ids as ever (same, same-1, ...)
    and linear time: four times the headings take well under sixteen
    times as long (a quadratic id search took 4.7 s for 10,000)."""
    headings_page(root, 'h5', 5000)
    headings_page(root, 'h20', 20000)
    runs = {}

    def timed(name, src, out):
        def run():
            best = None
            for _ in range(3):
                r = build(root, src, out)
                best = r if best is None or r.elapsed < best.elapsed \
                    else best
            runs[name] = best
            return best
        return run

    def check(root):
        got = ids(page(os.path.join(root, 'o20'), 'index.html'))
        want = {b'same'} | {b'same-%d' % i for i in range(1, 20000)}
        bad = [] if want <= got else ['the ids same-1 .. same-19999 differ']
        ratio = runs['20k'].elapsed / max(runs['5k'].elapsed, 0.01)
        if ratio > 7:
            bad.append('20,000 headings take %.1f times as long as 5,000 '
                       '(%.2f s, %.2f s): not linear' % (
                           ratio, runs['20k'].elapsed, runs['5k'].elapsed))
        return bad
    return ([('5k', timed('5k', 'h5', 'o5'), 0),
             ('20k', timed('20k', 'h20', 'o20'), 0)], ['o5', 'o20'], check)


@case
def long_declaration(root):
    """An 850 KB declaration of one parameter: linear (the [] search once
    took 1.8 s on it); four times the size, well under sixteen times the
    time."""
    for n in (106250, 425000):
        write(root, 'src%d/big.c' % n, '/**\n * f() - x\n */\nvoid f(int ' +
              'a ' * n + ');\n')
    runs = {}

    def timed(n):
        def run():
            best = None
            for _ in range(3):
                r = quire(root, 'extract', '--json', 'src%d/big.c' % n)
                best = r if best is None or r.elapsed < best.elapsed \
                    else best
            runs[n] = best
            return best
        return run

    def check(root):
        ratio = runs[425000].elapsed / max(runs[106250].elapsed, 0.01)
        return [] if ratio < 7 else [
            '4x the declaration takes %.1fx the time (%.2f s): not linear'
            % (ratio, runs[425000].elapsed)]
    return ([('small', timed(106250), 0), ('large', timed(425000), 0)], [],
            check)


def run_as_nobody_possible():
    try:
        r = subprocess.run(['setpriv', '--reuid=nobody', '--regid=nogroup',
                            '--clear-groups', '--', 'true'],
                           capture_output=True, timeout=10)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@case
def unreadable(root):
    """An unreadable file and folder, in a zero-config tree and a docs
    root: a diagnostic each, and the rest builds. quire runs as nobody,
    since root reads through any mode."""
    if os.geteuid() == 0 and not run_as_nobody_possible():
        return 'skip: running as root and setpriv cannot switch to nobody'
    write(root, 'src/a.c', item('fa'))
    write(root, 'src/b.c', item('fb'), mode=0)
    write(root, 'src/secret/c.c', item('fc'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('a.h') +
                            kdoc('b.c'),
                            'locked.md': '# Locked\n',
                            'open.md': '# Open\n'})
    write(root, 'src/a.h', item('fah'))
    write(root, 'src/docs/img.png', b'\x89PNG', mode=0)
    os.chmod(os.path.join(root, 'src/docs/locked.md'), 0)
    os.makedirs(os.path.join(root, 'src/docs/closed'))
    write(root, 'src/docs/closed/inner.md', '# Inner\n')
    for d in ('src/secret', 'src/docs/closed'):
        os.chmod(os.path.join(root, d), 0)
    os.chmod(root, 0o777)
    os.chmod(os.path.dirname(root), 0o755)
    user = 'nobody' if os.geteuid() == 0 else None

    def check(root):
        bad = []
        got = ids(page(os.path.join(root, 'zout'), 'a.c.html'))
        if b'c.fa' not in got:
            bad.append('zero-config: a.c is not on its page')
        if page(os.path.join(root, 'out'), 'open.html') is None:
            bad.append('configured: open.md was not built')
        return bad
    return ([('zero-config', lambda: build(root, 'src', 'zout', user=user),
              1),
             ('configured', lambda: build(root, 'src/docs', 'out',
                                          user=user), 1)],
            ['zout', 'out'], check)


@case
def missing_file(root):
    """{kernel-doc} naming a file that does not exist."""
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('nope.h') +
                            kdoc('ok.h')})
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'],
            lambda root: [])


@case
def duplicate_symbols(root):
    """The same symbol in two files, and one file on two pages."""
    write(root, 'src/a.h', item('twice'))
    write(root, 'src/b.h', item('twice'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('a.h') +
                            kdoc('b.h'),
                            'again.md': '# Again\n\n' + kdoc('a.h')})
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'],
            lambda root: [])


@case
def toctree_cycle(root):
    """a -> b -> a in toctrees, and a page listing itself."""
    toc = '```{toctree}\n%s\n```\n'
    docs(root, 'docs', {'index.md': '# Home\n\n' + toc % 'a',
                        'a.md': '# A\n\n' + toc % 'b\na',
                        'b.md': '# B\n\n' + toc % 'a\nindex'}, srctree='.')

    def check(root):
        out = os.path.join(root, 'out')
        return [] if all(page(out, p) for p in ('a.html', 'b.html')) else [
            'a page of the cycle was not built']
    return ([('build', lambda: build(root, 'docs', timeout=60), 0)],
            ['out'], check)


@case
def name_collision(root):
    """Pages named like quire's own files (genindex, search, 404), and a
    heading named like an item's anchor."""
    write(root, 'src/f.h', item('f'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n## c.f\n\n' + kdoc('f.h'),
                            'genindex.md': '# My index\n',
                            'search.md': '# My search\n'})
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'],
            lambda root: [])


@case
def directive_options(root):
    """Options continued as the kernel's .rst files write them, a trailing
    backslash, text no option takes, and options in conflict."""
    write(root, 'src/x.h', ''.join(item(n) for n in 'abcdefg'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc(
        'x.h', '   :functions: a b', '               c d') + kdoc(
        'x.h', ':identifiers: e \\', '    f \\', 'g \\') + kdoc(
        'x.h', ':export:', ':internal:', 'stray text') + '''
```{toctree}
:maxdepth: deep
:glob: yes
```
'''})

    def check(root):
        got = ids(page(os.path.join(root, 'out'), 'index.html'))
        want = {b'c.' + n.encode() for n in 'abcdefg'}
        return [] if want <= got else ['missing: %s' % sorted(want - got)]
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'], check)


@case
def yaml_syntax(root):
    """A YAML syntax error in quire.yml: exit 2, nothing written, the last
    site untouched."""
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('ok.h')})
    write(root, 'src/docs/quire.yml', 'title: [unclosed\nsrctree: ..\n')
    write(root, 'out/.quire-site', '1\n')
    write(root, 'out/index.html', 'the last good site\n')
    return ([('build', lambda: build(root, 'src/docs'), 2)], [],
            lambda root: [])


@case
def front_matter_syntax(root):
    """A YAML syntax error in a page's front matter: exit 2, nothing
    written."""
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '# Home\n',
                            'bad.md': '---\ntitle: "unclosed\n---\n# Bad\n'})
    return ([('build', lambda: build(root, 'src/docs'), 2)], [],
            lambda root: [] if not os.path.exists(os.path.join(root, 'out'))
            else ['out was written'])


@case
def config_types(root):
    """Known keys with values of the wrong type: errors naming the key,
    exit 2, nothing written."""
    docs(root, 'docs', {'index.md': '---\ntitle: [a, b]\norder: first\n'
                        '---\n# Home\n'}, srctree='.',
         extra='title: [a, list]\nallow_html: maybe\nexclude: {a: 1}\n'
         'comment_markup: html\ntheme: ../../../../etc\nmode: sideways\n')
    return ([('build', lambda: build(root, 'docs'), 2)], [],
            lambda root: [] if not os.path.exists(os.path.join(root, 'out'))
            else ['out was written'])


@case
def config_api_srctree(root):
    """mode: api makes the folder holding quire.yml the source tree: a
    srctree beside it is an error, exit 2, nothing written."""
    write(root, 'tree/ok.h', item('ok'))
    docs(root, 'tree', {}, srctree='..', extra='mode: api\n')
    return ([('build', lambda: build(root, 'tree'), 2)], [],
            lambda root: [] if not os.path.exists(os.path.join(root, 'out'))
            else ['out was written'])


@case
def config_unknown(root):
    """Unknown keys warn with the nearest known key; front matter keys are
    the themes', so only near misses of title and order warn."""
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '---\ntitel: Home\nordr: 1\n'
                            'description: for a theme\n---\n# Home\n\n' +
                            kdoc('ok.h')},
         srctree='..', extra='srctre: ..\nthem: x\ncompletely_else: 1\n')
    return ([('build', lambda: build(root, 'src/docs'), 0)], ['out'],
            lambda root: [])


@case
def srctree_missing(root):
    """srctree naming no folder: an error naming the key, not a missing
    file at every directive."""
    write(root, 'src/ok.h', item('ok'))
    docs(root, 'src/docs', {'index.md': '# Home\n\n' + kdoc('ok.h')},
         srctree='../srcc')
    return ([('build', lambda: build(root, 'src/docs'), 2)], [],
            lambda root: [])


@case
def theme_outside(root):
    """A theme path of quire.yml leading outside the tree."""
    write(root, 'elsewhere/theme/page.html', '<html></html>')
    docs(root, 'src/docs', {'index.md': '# Home\n'},
         extra='theme: ../../elsewhere/theme\n')
    return ([('build', lambda: build(root, 'src/docs'), 2)], [],
            lambda root: [])


@case
def theme_links(root):
    """A theme inside the tree whose static folder links out (a file) and
    to itself (a folder): neither is followed."""
    themes = os.environ.get('QUIRE_THEMES')
    if not themes:
        return 'skip: QUIRE_THEMES is not set (meson test sets it)'
    secret(root)
    shutil.copytree(os.path.join(themes, 'default'),
                    os.path.join(root, 'src/docs/mytheme'))
    os.symlink('../../../../elsewhere/secret.h',
               os.path.join(root, 'src/docs/mytheme/static/evil.css'))
    os.symlink('.', os.path.join(root, 'src/docs/mytheme/static/loop'))
    docs(root, 'src/docs', {'index.md': '# Home\n'},
         extra='theme: ./mytheme\n')

    def check(root):
        static = os.path.join(root, 'out/_static')
        bad = [] if os.path.exists(os.path.join(static, 'quire.css')) else [
            'the theme was not copied']
        for f in ('evil.css', 'loop'):
            if os.path.lexists(os.path.join(static, f)):
                bad.append('_static/%s was copied' % f)
        return bad
    return ([('build', lambda: build(root, 'src/docs', timeout=60), 1)],
            ['out'], check)


# The output folder (quire only replaces what it wrote) ---------------------

def src_tree(root):
    write(root, 'SRC/lib/a.c', item('fa'))
    write(root, 'SRC/lib/notes.txt', 'my notes\n')
    write(root, 'SRC/include/b.h', item('fb'))


@case
def out_is_source_folder(root):
    """quire build SRC -o SRC/lib: refused (it holds inputs), untouched."""
    src_tree(root)
    return ([('build', lambda: build(root, 'SRC', 'SRC/lib'), 2)], [],
            lambda root: [])


@case
def out_foreign_folder(root):
    """An existing folder that is not a quire site: refused, untouched."""
    src_tree(root)
    write(root, 'other/thesis.txt', 'four years of work\n')
    return ([('build', lambda: build(root, 'SRC', 'other'), 2)], [],
            lambda root: [])


@case
def out_marked_holding_source(root):
    """A folder with a .quire-site marker that also holds a source file a
    directive names: still an input of the build, so refused, untouched
    (the marker says quire wrote the folder, not that all of it is
    quire's)."""
    src_tree(root)
    write(root, 'SRC/lib/.quire-site', '1\n')
    docs(root, 'docs', {'index.md': '# Home\n\n' + kdoc('lib/a.c')},
         srctree='../SRC')
    return ([('build', lambda: build(root, 'docs', 'SRC/lib'), 2)], [],
            lambda root: [])


@case
def out_spellings(root):
    """DIR and srctree spelt through a link, .., and a trailing slash: all
    refused as OUT, nothing changed."""
    src_tree(root)
    os.symlink('SRC', os.path.join(root, 'alias'))
    write(root, 'w/docs/index.md', '# Home\n')
    write(root, 'w/docs/quire.yml', 'title: T\nsrctree: ../../SRC\n')
    runs = []
    for out in ('SRC/', 'alias', 'alias/', 'SRC/lib/..', './SRC/./',
                'alias/lib', 'SRC/lib/'):
        runs.append(('-o ' + out,
                     (lambda o: lambda: build(root, 'SRC', o))(out), 2))
    for out in ('SRC', 'alias/', 'w/docs/../../SRC/', 'w', 'w/docs/'):
        runs.append(('docs -o ' + out,
                     (lambda o: lambda: build(root, 'w/docs', o))(out), 2))
    return (runs, [], lambda root: [])


@case
def out_inside_dir(root):
    """OUT inside DIR (the default _site) is fine, left out of the walk,
    and rebuilt in place."""
    src_tree(root)
    docs(root, 'd', {'index.md': '# Home\n\n' + kdoc('SRC/lib/a.c')},
         srctree='..')

    def check(root):
        bad = []
        if b'c.fa' not in ids(page(os.path.join(root, 'SRC/_site'),
                                   'lib/a.c.html')):
            bad.append('SRC/_site has no page of a.c')
        if page(os.path.join(root, 'SRC/_site'), '_site/index.html'):
            bad.append('the walk went into _site')
        if b'c.fa' not in ids(page(os.path.join(root, 'd/_site'),
                                   'index.html')):
            bad.append('d/_site has no item of a.c')
        return bad
    return ([('first', lambda: build(root, 'SRC', 'SRC/_site'), 0),
             ('again', lambda: build(root, 'SRC', 'SRC/_site'), 0),
             ('docs', lambda: build(root, 'd', 'd/_site'), 0)],
            ['SRC/_site', 'd/_site'], check)


def site_state(out):
    state = {}
    for d, _, files in os.walk(out):
        for f in files:
            p = os.path.join(d, f)
            state[os.path.relpath(p, out)] = hashlib.sha256(
                page(d, f)).hexdigest()
    return state


@case
def killed_build(root):
    """A build killed (SIGKILL) at several moments leaves the last good
    site whole: OUT is, file for file, the site of the first build."""
    one = item('x_0')
    with open(write(root, 'SRC/big.c', ''), 'w') as f:
        for i in range(60000):
            f.write(one.replace('x_0', 'x_%d' % i))
    for i in range(200):
        write(root, 'SRC/d%d/f.c' % i, item('g_%d' % i))
    first = build(root, 'SRC', 'out')
    if first.status != 0:
        return 'first build failed: ' + first.stderr[-500:]
    good = site_state(os.path.join(root, 'out'))
    full = max(first.elapsed, 0.2)
    write(root, 'SRC/late.c', item('late'))
    bad = []
    env = dict(os.environ, QUIRE_NO_PROGRESS='1')
    for frac in (0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.97):
        p = subprocess.Popen([QUIRE, 'build', 'SRC', '-o', 'out',
                              '--quiet'], cwd=root, env=env,
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(full * frac)
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = site_state(os.path.join(root, 'out'))
        if now != good and not (set(now) >= set(good) and
                                'late.c.html' in now):
            bad.append('killed at %d%%: OUT is neither the last good site '
                       'nor the new one' % (frac * 100))
    return ([], ['out'], lambda root: bad)


# Runner --------------------------------------------------------------------

def read(path):
    try:
        with open(path, encoding='utf-8') as f:
            return f.read()
    except FileNotFoundError:
        return None


def make_deletable(root):
    for d, dirs, files in os.walk(root):
        for x in dirs + files:
            p = os.path.join(d, x)
            if not os.path.islink(p):
                try:
                    os.chmod(p, 0o700)
                except OSError:
                    pass
    for d, dirs, files in os.walk(root):
        for x in dirs:
            p = os.path.join(d, x)
            if not os.path.islink(p):
                os.chmod(p, 0o700)


def run_case(name, fn, expect_dir, regen):
    tmp = tempfile.mkdtemp(prefix='hostile-')
    root = os.path.join(tmp, name)
    os.mkdir(root)
    try:
        got = fn(root)
        if isinstance(got, str):
            return got if got.startswith('skip') else [got]
        runs, outs, check = got
        before = snapshot(root, outs)
        diags, problems = [], []
        for what, run, want in runs:
            try:
                r = run()
            except subprocess.TimeoutExpired:
                problems.append('%s: hangs' % what)
                continue
            if r.status != want:
                problems.append('%s: exit status %d, expected %d\n%s' % (
                    what, r.status, want, r.stderr[-2000:]))
            if r.status < 0 or r.status > 2:
                problems.append('%s: killed by signal or crashed (%d)' %
                                (what, r.status))
            diags.append(r.stderr)
        after = snapshot(root, outs)
        problems += ['outside OUT: ' + c for c in changes(before, after)]
        problems += check(root)
        diag = ''.join(d for d in diags)
        dpath = os.path.join(expect_dir, name + '.diag')
        if regen:
            if diag:
                with open(dpath, 'w') as f:
                    f.write(diag)
            elif os.path.exists(dpath):
                os.unlink(dpath)
        else:
            want = read(dpath) or ''
            if diag != want:
                problems.append('diagnostics differ:\n--- expected\n%s'
                                '--- got\n%s' % (want, diag))
        return problems
    finally:
        make_deletable(tmp)
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    global QUIRE, ASAN
    QUIRE = os.path.abspath(sys.argv[1])
    ASAN = asan(QUIRE)
    expect_dir = os.path.abspath(sys.argv[2])
    only = sys.argv[3:]
    regen = os.environ.get('QUIRE_REGEN') == '1'
    failed = 0
    for name, fn in CASES.items():
        if only and name not in only:
            continue
        xfail = read(os.path.join(expect_dir, name + '.xfail'))
        problems = run_case(name, fn, expect_dir, regen)
        if isinstance(problems, str):
            print('skip hostile/%s: %s' % (name, problems))
        elif xfail:
            if problems:
                print('xfail hostile/%s: %s' % (name, xfail.strip()))
            else:
                failed += 1
                print('FAIL hostile/%s: passes but is marked xfail; remove '
                      'expect/%s.xfail' % (name, name))
        elif problems:
            failed += 1
            print('FAIL hostile/%s' % name)
            for p in problems:
                print('  ' + p.replace('\n', '\n  '))
        else:
            print('ok   hostile/%s' % name)
    print('%d hostile cases failed' % failed)
    return 1 if failed else 0


ASAN = False

if __name__ == '__main__':
    sys.exit(main())
