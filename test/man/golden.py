#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden tests of quire man.

Every test/man/cases/<case>.c is one case (man/<case>). For each, working
in the cases folder so paths print as the file's name, the runner

  * runs `quire man -q -o TMP CASE.c` with SOURCE_DATE_EPOCH=1670716800
    and compares the pages written, concatenated in name order, each
    after a "==> NAME.9 <==" line, with CASE.man;
  * compares stderr with CASE.diag (no CASE.diag: it must be empty);
  * runs `mandoc -Tlint` and `groff -ww -man -Tutf8 -z` on every page:
    both must print nothing.

Then: all cases at once with -j1 and -j8 must write the same bytes; the
date must come from the git commit without SOURCE_DATE_EPOCH; a bad
SOURCE_DATE_EPOCH must exit 2. QUIRE_REGEN=1 rewrites CASE.man and
CASE.diag; review with git diff.

usage: golden.py QUIRE CASEDIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

EPOCH = '1670716800'  # 2022-12-11, linux 6.1's release day


def env(**kw):
    e = dict(os.environ)
    e.pop('SOURCE_DATE_EPOCH', None)
    e.update(kw)
    return e


def run_man(quire, cwd, out, files, extra=(), epoch=EPOCH):
    e = env(SOURCE_DATE_EPOCH=epoch) if epoch is not None else env()
    return subprocess.run([quire, 'man', '-q', '-o', out] + list(extra) +
                          list(files), cwd=cwd, env=e,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60)


def pages(out):
    d = os.path.join(out, 'man9')
    if not os.path.isdir(d):
        return {}
    res = {}
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), 'rb') as f:
            res[name] = f.read()
    return res


def concat(pg):
    return b''.join(b'==> ' + n.encode() + b' <==\n' + t
                    for n, t in sorted(pg.items()))


def lint(out, problems, cid, groff=True):
    d = os.path.join(out, 'man9')
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        path = os.path.join(d, name)
        if shutil.which('mandoc'):
            p = subprocess.run(['mandoc', '-Tlint', path],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            if p.stdout:
                problems.append('%s: mandoc -Tlint %s:\n%s' %
                                (cid, name, p.stdout.decode()))
        if groff and shutil.which('groff'):
            p = subprocess.run(['groff', '-ww', '-man', '-Tutf8', '-z',
                                path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if p.stderr or p.returncode:
                problems.append('%s: groff -ww %s:\n%s' %
                                (cid, name, p.stderr.decode()))


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
    quire, casedir = os.path.abspath(sys.argv[1]), sys.argv[2]
    regen = os.environ.get('QUIRE_REGEN') == '1'
    problems = []
    cases = sorted(n for n in os.listdir(casedir) if n.endswith('.c'))
    if not shutil.which('mandoc') or not shutil.which('groff'):
        print('note: mandoc or groff missing: lint checks not run')
    with tempfile.TemporaryDirectory() as tmp:
        for name in cases:
            base = os.path.join(casedir, name[:-2])
            cid = 'man/' + name[:-2]
            out = os.path.join(tmp, name[:-2])
            p = run_man(quire, casedir, out, [name])
            got = concat(pages(out))
            if regen:
                write(base + '.man', got)
                write(base + '.diag', p.stderr)
            want = read(base + '.man') or b''
            if got != want:
                problems.append('%s: pages differ from %s.man' %
                                (cid, name[:-2]))
            if p.stderr != (read(base + '.diag') or b''):
                problems.append('%s: stderr differs:\n%s' %
                                (cid, p.stderr.decode()))
            if p.returncode != 0:
                problems.append('%s: exit status %d' % (cid, p.returncode))
            lint(out, problems, cid)
            print('%s %s' % ('ok' if not problems else 'checked', cid))

        # the same bytes for any number of threads
        a, b = os.path.join(tmp, 'j1'), os.path.join(tmp, 'j8')
        run_man(quire, casedir, a, cases, ['-j1'])
        run_man(quire, casedir, b, cases, ['-j8'])
        if pages(a) != pages(b) or not pages(a):
            problems.append('man: -j1 and -j8 write different pages')

        # the date from git when SOURCE_DATE_EPOCH is unset
        repo = os.path.join(tmp, 'repo')
        os.mkdir(repo)
        shutil.copy(os.path.join(casedir, 'var.c'), repo)
        genv = env(GIT_AUTHOR_DATE='2001-02-03T04:05:06Z',
                   GIT_COMMITTER_DATE='2001-02-03T04:05:06Z',
                   GIT_AUTHOR_NAME='t', GIT_AUTHOR_EMAIL='t@t',
                   GIT_COMMITTER_NAME='t', GIT_COMMITTER_EMAIL='t@t')
        git = shutil.which('git')
        if git:
            for cmd in (['init', '-q'], ['add', 'var.c'],
                        ['commit', '-q', '-m', 'x']):
                subprocess.run([git] + cmd, cwd=repo, env=genv, check=True)
            run_man(quire, repo, os.path.join(repo, 'm'), ['var.c'],
                    epoch=None)
            got = pages(os.path.join(repo, 'm')).get('widget_count.9', b'')
            if b'.TH "WIDGET_COUNT" 9 "2001-02-03"' not in got:
                problems.append('man: the date is not the commit\'s:\n%s' %
                                got.decode())
        else:
            print('note: no git: the git date check is not run')
        # outside git and without SOURCE_DATE_EPOCH: no date at all
        nogit = os.path.join(tmp, 'nogit')
        os.mkdir(nogit)
        shutil.copy(os.path.join(casedir, 'var.c'), nogit)
        e = env(GIT_CEILING_DIRECTORIES=tmp)
        subprocess.run([quire, 'man', '-q', '-o', 'm', 'var.c'], cwd=nogit,
                       env=e, check=True, stderr=subprocess.PIPE)
        got = pages(os.path.join(nogit, 'm')).get('widget_count.9', b'')
        if b'.TH "WIDGET_COUNT" 9 "" ' not in got:
            problems.append('man: a date without git or SOURCE_DATE_EPOCH')

        # man: true in quire.yml: quire build writes the same pages
        site = os.path.join(tmp, 'site')
        os.makedirs(os.path.join(site, 'src'))
        os.makedirs(os.path.join(site, 'docs'))
        shutil.copy(os.path.join(casedir, 'function.c'),
                    os.path.join(site, 'src'))
        with open(os.path.join(site, 'docs', 'quire.yml'), 'w') as f:
            f.write('title: T\nsrctree: ../src\nversion: "1.0"\nman: true\n')
        with open(os.path.join(site, 'docs', 'index.md'), 'w') as f:
            f.write('# API\n\n```{kernel-doc} function.c\n```\n')
        p = subprocess.run([quire, 'build', '-q', 'docs', '-o', 'out'],
                           cwd=site, env=env(SOURCE_DATE_EPOCH=EPOCH),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        got = pages(os.path.join(site, 'out', 'man'))
        want = pages(os.path.join(tmp, 'function'))
        want = {n: t.replace(b'"2022-12-11" ""', b'"2022-12-11" "1.0"')
                for n, t in want.items()}
        if p.returncode or got != want:
            problems.append('man: quire build with man: true wrote %s: %s' %
                            (sorted(got), p.stderr.decode()))

        # pathological: 1 MB lines of unmatched markers, one word of 1 MB
        big = os.path.join(tmp, 'big')
        os.mkdir(big)
        with open(os.path.join(big, 'big.c'), 'w') as f:
            f.write('/**\n * big() - ' + '*a _b `c ' * 100000 + '\n * @x: ' +
                    'y' * 1000000 + '\n *\n * .' + '-' * 100000 +
                    '\n */\nint big(int x);\n')
        p = run_man(quire, big, os.path.join(big, 'm'), ['big.c'])
        if p.returncode or sorted(pages(os.path.join(big, 'm'))) != ['big.9']:
            problems.append('man: the pathological file: %d %s' %
                            (p.returncode, p.stderr.decode()[:300]))
        else:
            # mandoc only: groff takes minutes to fill a 1 MB paragraph
            lint(os.path.join(big, 'm'), problems, 'man/pathological',
                 groff=False)

        p = run_man(quire, casedir, os.path.join(tmp, 'bad'), ['var.c'],
                    epoch='yesterday')
        if p.returncode != 2 or b'SOURCE_DATE_EPOCH' not in p.stderr:
            problems.append('man: a bad SOURCE_DATE_EPOCH gives %d: %s' %
                            (p.returncode, p.stderr.decode()))
        p = run_man(quire, casedir, os.path.join(tmp, 'none'), [])
        if p.returncode != 2:
            problems.append('man: no FILE gives %d' % p.returncode)

    for pr in problems:
        print('FAIL ' + pr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
