#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The command line of quire: exit codes, help, option errors, directory
walking and the summary line, on small inputs made here.

Every command "quire --help" lists must have its page in docs/commands/
and be described in the man page (docs/quire.1).

usage: cli.py QUIRE SOURCE_ROOT
"""
import os
import subprocess
import sys
import tempfile

CLEAN = '/**\n * f() - a function\n * @x: a value\n */\nvoid f(int x);\n'
WARN = '/**\n * g() - a function\n */\nvoid g(int y);\n'


def main():
    quire = os.path.abspath(sys.argv[1])
    root = sys.argv[2]
    failed = 0

    def expect(name, args, rc, out=None, err=None, no_err=False, cwd=None):
        nonlocal failed
        p = subprocess.run([quire] + args, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        so = p.stdout.decode('utf-8', 'replace')
        se = p.stderr.decode('utf-8', 'replace')
        problems = []
        if p.returncode != rc:
            problems.append('exit %d, expected %d' % (p.returncode, rc))
        if out is not None and out not in so:
            problems.append('stdout lacks %r' % out)
        if err is not None and err not in se:
            problems.append('stderr lacks %r' % err)
        if no_err and se:
            problems.append('stderr not empty: %r' % se[:200])
        if problems:
            failed += 1
            print('FAIL %s: %s\n  stdout: %r\n  stderr: %r' %
                  (name, '; '.join(problems), so[:300], se[:300]))
        else:
            print('ok %s' % name)
        return so, se

    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'tree', 'b', 'deep'))
        os.makedirs(os.path.join(d, 'tree', '.hidden'))
        files = {'tree/clean.c': CLEAN, 'tree/b/warn.h': WARN,
                 'tree/b/deep/warn.c': WARN, 'tree/a.c': WARN,
                 'tree/.hidden/warn.c': WARN, 'tree/notes.txt': WARN}
        for rel, text in files.items():
            with open(os.path.join(d, rel), 'w') as f:
                f.write(text)

        expect('no arguments', [], 2, err='usage:')
        expect('--help', ['--help'], 0, out='extract')
        expect('--version', ['--version'], 0, out='quire ')
        expect('help check', ['help', 'check'], 0, out='usage: quire check')
        expect('unknown command', ['frobnicate'], 2, err="unknown command")
        expect('unknown option', ['--frobnicate'], 2)
        for cmd in ('check', 'extract'):
            expect(cmd + ' --help', [cmd, '--help'], 0,
                   out='usage: quire ' + cmd)
            expect(cmd + ' without files', [cmd], 2, err='Try')
            expect(cmd + ' bad -j', [cmd, '-j', 'many', 'x.c'], 2,
                   err="bad -j value")
            expect(cmd + ' bad -W', [cmd, '-Wfoo', 'x.c'], 2,
                   err='unknown option -Wfoo')
            expect(cmd + ' missing file', [cmd, 'no-such.c'], 2,
                   err='No such file', cwd=d)
        expect('extract --export --internal',
               ['extract', '--export', '--internal', 'tree/a.c'], 2, cwd=d)
        expect('extract a directory', ['extract', 'tree'], 2,
               err='Is a directory', cwd=d)

        expect('check clean: silent', ['check', 'tree/clean.c'], 0,
               no_err=True, cwd=d)
        _, se = expect('check a tree', ['check', 'tree'], 0,
                       err='quire: 3 warnings in 3 files (4 checked)', cwd=d)
        order = [l.split(':')[0] for l in se.splitlines() if '[-W' in l]
        if order != ['tree/a.c', 'tree/b/deep/warn.c', 'tree/b/warn.h']:
            failed += 1
            print('FAIL check a tree: files %r: not sorted, or hidden or '
                  'non-C files taken' % order)
        expect('check trailing slash', ['check', 'tree/'], 0,
               err='tree/a.c:4:1: warning:', cwd=d)
        expect('check -q', ['check', '-q', 'tree'], 0, cwd=d)
        _, se = expect('check -Werror', ['check', '-Werror', 'tree'], 1,
                       err='quire: 3 errors in 3 files', cwd=d)
        if ': warning: ' in se:
            failed += 1
            print('FAIL check -Werror: a warning still says warning')
        expect('check -W error', ['check', '-W', 'error', 'tree/a.c'], 1,
               cwd=d)
        expect('check -j1 and -j3 agree', ['check', '-j', '3', 'tree'], 0,
               err='quire: 3 warnings', cwd=d)

        expect('extract json', ['extract', '--json', 'tree/clean.c'], 0,
               out='"name":"f"', no_err=True, cwd=d)
        expect('extract markdown', ['extract', 'tree/clean.c'], 0, out='f',
               no_err=True, cwd=d)
        expect('extract -Werror', ['extract', '-Werror', 'tree/a.c'], 1,
               err=': error: ', cwd=d)
        so, _ = expect('extract order', ['extract', '--json', 'tree/a.c',
                                         'tree/clean.c'], 0, cwd=d)
        names = [l.split('"name":"')[1].split('"')[0]
                 for l in so.splitlines()]
        if names != ['g', 'f']:
            failed += 1
            print('FAIL extract order: %r, expected files in the order '
                  'given' % names)
    so, _ = expect('--help lists commands', ['--help'], 0, out='commands:')
    cmds = []
    for line in so.split('commands:', 1)[1].splitlines():
        if line.startswith('  ') and line.split():
            cmds.append(line.split()[0])
    with open(os.path.join(root, 'docs', 'quire.1')) as f:
        man = f.read()
    for c in cmds:
        if '.Cm %s' % c not in man:
            failed += 1
            print('FAIL docs/quire.1 does not describe quire %s' % c)
        if not os.path.exists(os.path.join(root, 'docs', 'commands',
                                           c + '.md')):
            failed += 1
            print('FAIL no docs/commands/%s.md' % c)
    print('%d failed' % failed)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
