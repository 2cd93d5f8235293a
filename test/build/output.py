#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What quire build may replace, the depfile with real ninja, and kills.

Output folders: quire writes into OUT only when it is missing, empty, or
carries the .quire-site marker, and never when OUT is or holds the docs
root, the source tree, the configuration or the theme, however the path
is spelled. Each refusal must exit 2 with its message and leave every
file of the work folder as it was (hashed before and after). The same
holds for the cache folder.

ninja: a build.ninja with deps = gcc runs quire build --depfile; a second
run does nothing; touching a page, a header the pages read, the
configuration or the theme reruns it; so does adding a page.

Kills: a build of a larger tree is killed with SIGKILL at spread-out
moments; after each, OUT is still the last good site, whole, and a next
build succeeds and cleans what the killed one left.

usage: output.py QUIRE SOURCE_ROOT
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

QUIRE = None
FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg)


def snapshot(path):
    """Every file, folder and symlink below path, with a hash of each."""
    snap = {}
    for d, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(dirs + names):
            p = os.path.join(d, n)
            rel = os.path.relpath(p, path)
            if os.path.islink(p):
                snap[rel] = 'link:' + os.readlink(p)
            elif os.path.isdir(p):
                snap[rel] = 'dir'
            else:
                with open(p, 'rb') as f:
                    snap[rel] = hashlib.sha256(f.read()).hexdigest()
    return snap


def run(args, cwd, env):
    return subprocess.run([QUIRE] + args, cwd=cwd, env=env,
                          capture_output=True, text=True)


def refuse(name, work, args, want, env, cwd=None):
    before = snapshot(work)
    r = run(args, cwd or work, env)
    after = snapshot(work)
    if r.returncode != 2:
        fail('%s: exit %d, expected 2; stderr: %s' %
             (name, r.returncode, r.stderr[-300:]))
    elif want not in r.stderr:
        fail('%s: message %r not in: %s' % (name, want, r.stderr))
    if before != after:
        changed = sorted(k for k in set(before) | set(after)
                         if before.get(k) != after.get(k))
        fail('%s: files changed: %s' % (name, changed[:10]))
    else:
        print('ok: %s' % name)


def accept(name, work, args, env, cwd=None):
    r = run(args, cwd or work, env)
    if r.returncode != 0:
        fail('%s: exit %d: %s' % (name, r.returncode, r.stderr[-300:]))
    else:
        print('ok: %s' % name)
    return r


def make_tree(work):
    src = os.path.join(work, 'SRC')
    os.makedirs(os.path.join(src, 'lib'))
    with open(os.path.join(src, 'lib', 'a.c'), 'w') as f:
        f.write('/**\n * a_do() - do a\n * @x: x\n */\nint a_do(int x)\n'
                '{\n}\n')
    with open(os.path.join(src, 'lib', 'notes.txt'), 'w') as f:
        f.write('my notes\n')
    return src


def ownership(work, env):
    src = make_tree(work)
    other = os.path.join(work, 'other')
    os.makedirs(other)
    with open(os.path.join(other, 'thesis.txt'), 'w') as f:
        f.write('four years of work\n')
    os.symlink('SRC', os.path.join(work, 'srclink'))
    not_empty = 'the folder is not empty and quire did not write it'
    refuse('OUT is a source folder (SRC/lib)', work,
           ['build', 'SRC', '-o', 'SRC/lib'], not_empty, env)
    refuse('OUT is a foreign folder', work,
           ['build', 'SRC', '-o', 'other'], not_empty, env)
    refuse('OUT is DIR', work, ['build', 'SRC', '-o', 'SRC'],
           'an input of the build', env)
    refuse('OUT is DIR with a trailing slash', work,
           ['build', 'SRC', '-o', 'SRC/'], 'an input of the build', env)
    refuse('OUT is DIR through ..', work,
           ['build', 'SRC', '-o', 'SRC/lib/..'], 'an input of the build',
           env)
    refuse('OUT is DIR through a symlink', work,
           ['build', 'SRC', '-o', 'srclink'], 'an input of the build', env)
    refuse('OUT holds DIR', work, ['build', 'SRC', '-o', '.'],
           'an input of the build', env)
    refuse('OUT is /', work, ['build', 'SRC', '-o', '/'],
           'an input of the build', env)
    with open(os.path.join(work, 'afile'), 'w') as f:
        f.write('a file\n')
    refuse('OUT is a file', work, ['build', 'SRC', '-o', 'afile'],
           'it is not a folder', env)
    refuse('the cache is a foreign folder', work,
           ['build', 'SRC', '-o', 'fresh', '--cache', 'other'], not_empty,
           env)
    refuse('the cache inside OUT', work,
           ['build', 'SRC', '-o', 'site', '--cache', 'site/c'],
           'refusing the cache folder', env)
    # a cache a build wrote, and then the sources moved into it: its
    # units are read while the site is listed, before the folder is
    # checked in full; the refusal must still leave every byte as it was
    accept('a build with its cache in cwork', work,
           ['build', 'SRC', '-o', 'csite', '--cache', 'cwork'], env)
    shutil.copytree(src, os.path.join(work, 'cwork', 'SRC'))
    refuse('the cache holds DIR', work,
           ['build', 'cwork/SRC', '-o', 'csite', '--cache', 'cwork'],
           'an input of the build', env)
    shutil.rmtree(os.path.join(work, 'cwork'))
    shutil.rmtree(os.path.join(work, 'csite'))
    # a docs root whose srctree lies inside OUT
    docs = os.path.join(work, 'docs')
    os.makedirs(docs)
    with open(os.path.join(docs, 'quire.yml'), 'w') as f:
        f.write('title: t\nsrctree: ../SRC\n')
    with open(os.path.join(docs, 'index.md'), 'w') as f:
        f.write('# t\n\n```{kernel-doc} lib/a.c\n```\n')
    refuse('OUT holds srctree', work, ['build', 'docs', '-o', 'SRC/..'],
           'an input of the build', env)
    refuse('OUT is srctree', work, ['build', 'docs', '-o', 'SRC'],
           'an input of the build', env)
    # a theme given as a path must lie inside the tree (docs/safety.md)
    shutil.copytree(os.path.join(env['QUIRE_THEMES'], 'default'),
                    os.path.join(src, 'themes', 'default'))
    with open(os.path.join(docs, 'quire.yml'), 'w') as f:
        f.write('title: t\nsrctree: ../SRC\n'
                'theme: ../SRC/themes/default\n')
    refuse('OUT holds the theme', work,
           ['build', 'docs', '-o', 'SRC/themes'],
           'an input of the build', env)
    shutil.rmtree(os.path.join(src, 'themes'))
    with open(os.path.join(docs, 'quire.yml'), 'w') as f:
        f.write('title: t\nsrctree: ../SRC\n')

    # everything a site has: pages, assets, .nojekyll, the marker
    with open(os.path.join(docs, 'pic.png'), 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n')
    accept('a docs site with an image', work,
           ['build', 'docs', '-o', 'withimg'], env)
    for name in ('index.html', 'pic.png', '.nojekyll', '.quire-site',
                 'objects.inv', 'genindex.html', '404.html',
                 '_static/quire.css'):
        if not os.path.exists(os.path.join(work, 'withimg', name)):
            fail('the site has no %s' % name)

    # what may be written
    os.makedirs(os.path.join(work, 'empty'))
    accept('OUT is an empty folder', work, ['build', 'SRC', '-o', 'empty'],
           env)
    with open(os.path.join(work, 'empty', '.quire-site')) as f:
        if not f.read().startswith('quire-site '):
            fail('the marker does not name its format')
    accept('OUT carries the marker', work, ['build', 'SRC', '-o', 'empty'],
           env)
    before = snapshot(src)
    accept('OUT inside DIR (the default _site)', work, ['build', 'SRC'],
           env, cwd=work)
    r = accept('OUT inside DIR, built again', src, ['build'], env)
    after = snapshot(src)
    grown = sorted(set(after) - set(before))
    if any(not (k.startswith('_site') or k.startswith('.quire-cache'))
           for k in grown) or set(before) - set(after):
        fail('a build inside DIR touched more than _site and its cache: %s'
             % grown[:10])
    if '_site' in r.stderr and 'lib/' not in r.stderr and \
            os.path.exists(os.path.join(src, '_site', '_site')):
        fail('the output folder was read as part of the tree')


NINJA = '''rule quire
  command = {quire} build {docs} -o $out --depfile $out.d --quiet
  depfile = $out.d
  deps = gcc
build site: quire
'''


def ninja(work, root, env):
    if not shutil.which('ninja'):
        print('skip: ninja not found')
        return
    proj = os.path.join(work, 'nproj')
    shutil.copytree(os.path.join(root, 'docs'), os.path.join(proj, 'docs'))
    shutil.copytree(os.path.join(root, 'lib'), os.path.join(proj, 'lib'),
                    ignore=lambda d, names: [
                        n for n in names
                        if os.path.isfile(os.path.join(d, n))
                        and not n.endswith('.h')])
    b = os.path.join(proj, 'b')
    os.makedirs(b)
    with open(os.path.join(b, 'build.ninja'), 'w') as f:
        f.write(NINJA.format(quire=QUIRE, docs='../docs'))

    def nin(what, want_work):
        # mtimes on some file systems are coarse: let the clock move on
        time.sleep(0.02)
        r = subprocess.run(['ninja'], cwd=b, env=env, capture_output=True,
                           text=True)
        did = 'no work to do' not in r.stdout
        if r.returncode != 0:
            fail('ninja, %s: exit %d: %s' % (what, r.returncode,
                                              r.stdout + r.stderr))
        elif did != want_work:
            fail('ninja, %s: %s' % (what, 'ran quire' if did else
                                    'did nothing'))
        else:
            print('ok: ninja, %s' % what)

    def touch(p):
        time.sleep(0.02)
        os.utime(p)

    nin('first run', True)
    nin('second run', False)
    touch(os.path.join(proj, 'docs', 'json.md'))
    nin('a page touched', True)
    nin('then nothing', False)
    touch(os.path.join(proj, 'lib', 'util', 'util.h'))
    nin('a documented header touched', True)
    touch(os.path.join(proj, 'docs', 'quire.yml'))
    nin('the configuration touched', True)
    touch(os.path.join(env['QUIRE_THEMES'], 'default', 'page.html'))
    nin('the theme touched', True)
    time.sleep(0.02)
    with open(os.path.join(proj, 'docs', 'added.md'), 'w') as f:
        f.write('# Added\n')
    touch(os.path.join(proj, 'docs'))
    nin('a page added', True)
    nin('and nothing after', False)
    # quire run by hand with the depfile, settled: its stamp, written from
    # the inputs the depfile lists, says nothing changed
    time.sleep(1.1)
    for what in ('settles', 'nothing changed'):
        r = subprocess.run([QUIRE, 'build', '../docs', '-o', 'site',
                            '--depfile', 'site.d'], cwd=b, env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail('quire with the depfile, %s: exit %d: %s' %
                 (what, r.returncode, r.stderr[-300:]))
    if '(nothing changed)' not in r.stderr:
        fail('quire with the depfile, run again: %s' % r.stderr[-300:])
    else:
        print('ok: quire with the depfile, run again: nothing changed')
    r = subprocess.run(['ninja', '-t', 'deps', 'site'], cwd=b,
                       capture_output=True, text=True)
    if '../docs/added.md' not in r.stdout or 'util/util.h' not in r.stdout:
        fail('ninja -t deps misses inputs: %s' % r.stdout[:500])


def kills(work, root, env):
    """SIGKILL a build at spread-out moments: OUT stays the last site."""
    src = os.path.join(work, 'ksrc')
    os.makedirs(src)
    for i in range(400):
        d = os.path.join(src, 'd%02d' % (i % 20))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'f%03d.c' % i), 'w') as f:
            for k in range(20):
                f.write('/**\n * fn_%d_%d() - do thing %d\n * @x: see '
                        'fn_%d_%d()\n */\nint fn_%d_%d(int x)\n{\n}\n\n' %
                        (i, k, k, (i + 1) % 400, k, i, k))
    out = os.path.join(work, 'ksite')
    r = run(['build', src, '-o', out, '--no-cache', '-j2'], work, env)
    if r.returncode != 0:
        fail('kills: first build exited %d' % r.returncode)
        return
    t0 = time.time()
    run(['build', src, '-o', out + '-timing', '--no-cache', '-j2'], work,
        env)
    full = time.time() - t0
    good = snapshot(out)
    # a change, so a finished build would differ from the last site
    with open(os.path.join(src, 'd00', 'f000.c'), 'a') as f:
        f.write('/**\n * late() - added late\n */\nvoid late(void)\n{\n}\n')
    for n in range(8):
        delay = full * (n + 0.5) / 8
        p = subprocess.Popen([QUIRE, 'build', src, '-o', out, '--no-cache',
                              '-j2', '--quiet'], cwd=work, env=env)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = snapshot(out)
        if now != good:
            # the build may have finished before the kill: then it must
            # be the whole new site
            fresh = os.path.join(work, 'kfresh')
            run(['build', src, '-o', fresh, '--no-cache'], work, env)
            if now != snapshot(fresh):
                fail('kill after %.2f s: OUT is neither the last site nor '
                     'the new one' % delay)
            shutil.rmtree(fresh)
            good = now
        print('ok: killed after %.2f s, OUT whole' % delay)
    # a build killed inside making its folder, before the marker was
    # renamed in: a dead process's folder holding only the marker's
    # temporary file goes; one holding anything else stays
    dead = 2 ** 22 + 7
    while True:
        try:
            os.kill(dead, 0)
            dead += 1
        except ProcessLookupError:
            break
        except PermissionError:
            dead += 1
    bare = os.path.join(work, '.ksite.quire-new-%d' % dead)
    os.makedirs(bare)
    with open(os.path.join(bare, '.quire-site.tmp.%d' % dead), 'w') as f:
        f.write('quire-site')
    other = os.path.join(work, '.ksite.quire-old-%d' % dead)
    os.makedirs(other)
    with open(os.path.join(other, 'mine.txt'), 'w') as f:
        f.write('not quire\'s\n')
    left = [n for n in os.listdir(work) if n.startswith('.ksite.quire-')]
    r = run(['build', src, '-o', out, '--no-cache', '--quiet'], work, env)
    if not os.path.exists(os.path.join(other, 'mine.txt')):
        fail('a folder quire did not mark was removed')
    else:
        shutil.rmtree(other)
    if r.returncode != 0:
        fail('the build after the kills exited %d' % r.returncode)
    still = [n for n in os.listdir(work) if n.startswith('.ksite.quire-')]
    if still:
        fail('folders the killed builds left were not removed: %s' % still)
    else:
        print('ok: %d folders left by killed builds removed' % len(left))


def main():
    global QUIRE
    QUIRE, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        themes = os.path.join(work, 'themes', 'all')
        shutil.copytree(os.path.join(root, 'themes', 'default'),
                        os.path.join(themes, 'default'))
        env = dict(os.environ, QUIRE_THEMES=themes, QUIRE_NO_PROGRESS='1')
        for part in (ownership, ninja, kills):
            w = os.path.join(work, part.__name__)
            os.makedirs(w)
            if part is ownership:
                part(w, env)
            else:
                part(w, root, env)
    if FAILS:
        print('%d failed' % len(FAILS))
        return 1
    print('all output, ninja and kill checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
