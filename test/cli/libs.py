#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libgit2, libmicrohttpd and graphviz: quire is not linked with them and
opens them only when a run needs them; when one cannot be loaded, the
run says which library, for what, and fails the way the feature fails
for other reasons.

The dynamic loader searches LD_LIBRARY_PATH before the system's folders,
so a folder holding a file under a library's SONAME replaces it for a
run: an empty file (the library cannot be opened) or nolib (a library
without the symbols quire looks up). Nothing in quire knows of this.

  - `ldd quire` lists none of the libraries;
  - with every library replaced, `--version`, `check` and a build
    outside git with no graph still work and say nothing;
  - libgit2: `build --rev` exits as for an unreadable repository (2)
    with "cannot load SONAME (needed to read git revisions)"; a build in
    a work tree notes the same and builds what a build that found no
    repository builds;
  - libgvc and libcgraph: each graph gets the -Wkernel-graph warning of
    a graph graphviz cannot draw, naming the library, and the build
    exits as with a DOT syntax error: 0, or 1 under -Werror;
  - libmicrohttpd: `serve` exits as when it cannot listen (2) with
    "cannot load SONAME (needed to serve the site)", before building.

usage: libs.py QUIRE NOLIB GIT2 MICROHTTPD GVC CGRAPH
(the last four are the SONAMEs meson found)
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

HEADER = '/**\n * f() - a function\n * @x: a value\n */\nvoid f(int x);\n'


def main():
    quire = os.path.abspath(sys.argv[1])
    nolib = os.path.abspath(sys.argv[2])
    git2, mhd, gvc, cgraph = sys.argv[3:7]
    failed = 0

    def run(args, libs=None, cwd=None, timeout=120):
        env = dict(os.environ)
        env.pop('LD_LIBRARY_PATH', None)
        if libs:
            env['LD_LIBRARY_PATH'] = libs
        p = subprocess.run([quire] + args, cwd=cwd, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return (p.returncode, p.stdout.decode('utf-8', 'replace'),
                p.stderr.decode('utf-8', 'replace'))

    def check(name, ok, why, se=''):
        nonlocal failed
        if ok:
            print('ok %s' % name)
        else:
            failed += 1
            print('FAIL %s: %s\n  stderr: %r' % (name, why, se[:600]))

    ldd = shutil.which('ldd')
    if ldd:
        out = subprocess.run([ldd, quire], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT).stdout.decode()
        linked = [s for s in (git2, mhd, gvc, cgraph) if s in out]
        check('ldd lists none of them', not linked,
              'linked: %s' % ', '.join(linked))

    with tempfile.TemporaryDirectory() as d:
        # a folder per way of failing and library, and one with all
        variants = {}
        for kind in ('empty', 'nosym'):
            for so in (git2, mhd, gvc, cgraph, 'all'):
                folder = os.path.join(d, 'lib-%s-%s' % (kind, so))
                os.mkdir(folder)
                for name in ((git2, mhd, gvc, cgraph) if so == 'all'
                             else (so,)):
                    path = os.path.join(folder, name)
                    if kind == 'empty':
                        open(path, 'w').close()
                    else:
                        shutil.copy(nolib, path)
                variants[kind, so] = folder

        # a work tree whose repository libgit2 cannot read (its config
        # is broken): a build that loads libgit2 and one that cannot
        # both go on as outside git
        work = os.path.join(d, 'work')
        for sub in ('.git/objects', '.git/refs', 'src'):
            os.makedirs(os.path.join(work, sub))
        with open(os.path.join(work, '.git', 'HEAD'), 'w') as f:
            f.write('ref: refs/heads/main\n')
        with open(os.path.join(work, '.git', 'config'), 'w') as f:
            f.write('[core\nbroken')
        with open(os.path.join(work, 'src', 'a.h'), 'w') as f:
            f.write(HEADER)
        # outside git, with graphs: one graphviz draws, one it cannot
        plain = os.path.join(d, 'plain')
        os.makedirs(plain)
        with open(os.path.join(plain, 'a.h'), 'w') as f:
            f.write(HEADER)
        graphs = os.path.join(d, 'graphs')
        os.makedirs(graphs)
        for name, text in (('quire.yml', 'title: graphs\n'),
                           ('index.md', '# Graphs\n\nTwo graphs.\n'),
                           ('hello.dot', 'digraph { a -> b }\n')):
            with open(os.path.join(graphs, name), 'w') as f:
                f.write(text)
        broken = os.path.join(d, 'broken')
        shutil.copytree(graphs, broken)
        with open(os.path.join(broken, 'hello.dot'), 'w') as f:
            f.write('digraph { a -> ; }\n')

        # what each feature does when it fails for another reason
        rc_repo, _, se = run(['build', '--rev', 'HEAD', '--repo', work,
                              os.path.join(work, 'src'), '-o',
                              os.path.join(d, 'o-repo')])
        check('baseline: --rev of an unreadable repository exits 2',
              rc_repo == 2 and 'cannot open the repository' in se,
              'exit %d' % rc_repo, se)
        rc_dot, _, se = run(['build', broken, '-o', os.path.join(d, 'o-b')])
        check('baseline: a DOT syntax error warns, exit 0',
              rc_dot == 0 and '[-Wkernel-graph]' in se, 'exit %d' % rc_dot,
              se)
        rc_dot_w, _, se = run(['build', broken, '-Werror', '-o',
                               os.path.join(d, 'o-bw')])
        check('baseline: ... and exits 1 under -Werror', rc_dot_w == 1,
              'exit %d' % rc_dot_w, se)
        rc_serve, _, se = run(['serve', plain, '--port', '0', '--bind',
                               'no-such-address', '--quiet'])
        check('baseline: serve that cannot listen exits 2', rc_serve == 2,
              'exit %d' % rc_serve, se)
        rc, _, se = run(['build', os.path.join(work, 'src'), '--quiet',
                         '-o', os.path.join(d, 'o-work')])
        check('baseline: a build in the work tree', rc == 0,
              'exit %d' % rc, se)

        for kind in ('empty', 'nosym'):
            every = variants[kind, 'all']
            tag = '[%s] ' % kind

            rc, so, se = run(['--version'], every)
            check(tag + '--version needs none of them',
                  rc == 0 and so.startswith('quire ') and not se,
                  'exit %d' % rc, se)
            rc, _, se = run(['check', os.path.join(plain, 'a.h')], every)
            check(tag + 'check needs none of them', rc == 0 and not se,
                  'exit %d' % rc, se)
            rc, _, se = run(['build', plain, '--quiet', '-o',
                             os.path.join(d, 'o-plain-' + kind)], every)
            check(tag + 'a build outside git without graphs needs none',
                  rc == 0 and not se, 'exit %d' % rc, se)

            # libgit2
            lib = variants[kind, git2]
            rc, _, se = run(['build', '--rev', 'HEAD', '--repo', work,
                             os.path.join(work, 'src'), '-o',
                             os.path.join(d, 'o-rev-' + kind)], lib)
            want = ('quire build: cannot load %s (needed to read git '
                    'revisions): ' % git2)
            check(tag + 'build --rev without libgit2',
                  rc == rc_repo and se.startswith(want) and
                  se.count('\n') == 1,
                  'exit %d, expected %d and %r' % (rc, rc_repo, want), se)
            out = os.path.join(d, 'o-work-' + kind)
            rc, _, se = run(['build', os.path.join(work, 'src'), '--quiet',
                             '-o', out], lib)
            want = ('quire build: note: cannot load %s (needed to read the '
                    'git work tree): ' % git2)
            check(tag + 'build in a work tree without libgit2: a note',
                  rc == 0 and se.startswith(want) and
                  se.rstrip().endswith('going on as outside git'),
                  'exit %d, expected 0 and %r' % (rc, want), se)
            cmp = filecmp.dircmp(os.path.join(d, 'o-work'), out)
            same = not (cmp.left_only or cmp.right_only or
                        cmp.diff_files or cmp.funny_files)
            check(tag + '... and the site found no repository builds',
                  same, 'differs: %r' % (cmp.diff_files + cmp.left_only +
                                         cmp.right_only))

            # graphviz: either library
            for so in (gvc, cgraph):
                lib = variants[kind, so]
                # "warning:", or "error:" under -Werror
                want = ('graph not drawn: cannot load %s (needed to draw '
                        'graphs): ' % so)
                rc, _, se = run(['build', graphs, '-o',
                                 os.path.join(d, 'o-g-%s-%s' % (kind, so))],
                                lib)
                check(tag + 'a graph without %s: -Wkernel-graph' % so,
                      rc == rc_dot and 'hello.dot:1:1: warning: ' + want in se
                      and
                      se.count('[-Wkernel-graph]') == 1,
                      'exit %d, expected %d and %r' % (rc, rc_dot, want),
                      se)
                rc, _, se = run(['build', graphs, '-Werror', '-o',
                                 os.path.join(d, 'o-gw-%s-%s' % (kind, so))],
                                lib)
                check(tag + '... and -Werror exits as for a broken graph',
                      rc == rc_dot_w and 'hello.dot:1:1: error: ' + want in se,
                      'exit %d, expected %d' % (rc, rc_dot_w), se)

            # libmicrohttpd: refused before the first build
            rc, _, se = run(['serve', plain, '--port', '0', '--quiet'],
                            variants[kind, mhd], timeout=60)
            want = ('quire serve: cannot load %s (needed to serve the '
                    'site): ' % mhd)
            check(tag + 'serve without libmicrohttpd',
                  rc == rc_serve and se.startswith(want) and
                  se.count('\n') == 1,
                  'exit %d, expected %d and %r' % (rc, rc_serve, want), se)

    print('%s' % ('all passed' if not failed else '%d failed' % failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
