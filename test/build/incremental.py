#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Incremental builds against clean ones, and the cache's defences.

Every step is also built by test/build/rebuild.c, which takes the
unchanged units and the search index's memo from the build before, in
memory, as quire serve does: its site must equal the clean build too,
and where one comment or one page changed, its search index must have
left files as they were (not rewritten them all).

A copy of quire's own docs and headers (a docs root with quire.yml and
srctree: ..) and a small zero-config tree are built, then edited step by
step: a comment, a member's name, a page's text, a heading, a new page,
a removed page, a renamed page, a new documented function, a removed
source, the configuration and the theme. After every step the site built
with the cache must equal a clean build (--no-cache) of the same tree
byte for byte, file for file, and the summary must show that the build
kept what it could (a test that re-rendered everything would pass the
equality check alone). Then the cache is corrupted, truncated, made
foreign and made of another version: each is ignored with a one-line
note, and the site still equals a clean one.

usage: incremental.py QUIRE SOURCE_ROOT REBUILD
"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

QUIRE = None
REBUILD = None
MEMORY = None
FAILS = []
SUMMARY = re.compile(r'quire build: (\d+) pages rendered, (\d+) kept, '
                     r'(\d+) removed; (\d+) of (\d+) sources parsed')


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg)


def build(src, out, *extra, env=None):
    r = subprocess.run([QUIRE, 'build', src, '-o', out, '-j2'] + list(extra),
                       capture_output=True, text=True, env=env)
    return r


def tree(path):
    """Every file below path, relative, with its bytes."""
    files = {}
    for d, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(d, n)
            with open(p, 'rb') as f:
                files[os.path.relpath(p, path)] = f.read()
    return files


def same_site(a, b, step):
    ta, tb = tree(a), tree(b)
    if ta.keys() != tb.keys():
        fail('%s: files differ: only incremental %s, only clean %s' %
             (step, sorted(ta.keys() - tb.keys())[:5],
              sorted(tb.keys() - ta.keys())[:5]))
        return False
    diff = [k for k in ta if ta[k] != tb[k]]
    if diff:
        fail('%s: %d files differ from a clean build, e.g. %s' %
             (step, len(diff), diff[:5]))
        return False
    return True


class Memory:
    """rebuild.c: builds that take from the one before, in memory."""

    def __init__(self, work, src, env):
        self.out = os.path.join(work, 'mem-site')
        cache = os.path.join(work, 'mem-cache')
        shutil.rmtree(self.out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        self.p = subprocess.Popen([REBUILD, src, self.out, cache],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)

    def build(self):
        """One build; returns its line ("ok ..." or "failed: ...")."""
        self.p.stdin.write('build\n')
        self.p.stdin.flush()
        return self.p.stdout.readline().strip()

    def close(self):
        self.p.stdin.close()
        if self.p.wait(60) != 0:
            fail('rebuild exited %d' % self.p.returncode)


MEM_LINE = re.compile(r'ok (\d+) rendered (\d+) kept (\d+) parsed '
                      r'(\d+) memory (\d+) search-kept')


def memory_step(name, clean, want_search_kept, want_parsed):
    line = MEMORY.build()
    m = MEM_LINE.match(line)
    if not m:
        fail('%s: the build in memory: %s' % (name, line))
        return
    # a unit not in memory comes from the unit cache, read row by row
    if want_parsed is not None and int(m.group(3)) != want_parsed:
        fail('%s: in memory, %s sources parsed, expected %d' %
             (name, m.group(3), want_parsed))
    if same_site(MEMORY.out, clean, name + ' (in memory)'):
        print('ok: %s, in memory (%s)' % (name, line))
    kept = int(m.group(5))
    if want_search_kept == 'all':
        total = sum(len(f) for _, _, f in
                    os.walk(os.path.join(clean, '_search')))
        if kept != total:
            fail('%s: in memory, %d of the search index\'s %d files were '
                 'kept, where its bytes did not change: %s' %
                 (name, kept, total, line))
    elif want_search_kept and kept == 0:
        fail('%s: in memory, the search index rewrote every file: %s' %
             (name, line))


def only_file(cache, prefix):
    """The one file of the cache folder named PREFIX..., or None (and a
    failure) when there is not exactly one."""
    names = os.listdir(cache)
    hits = [n for n in names if n.startswith(prefix)]
    if len(hits) != 1:
        fail('expected one %s* in %s, found %s' % (prefix, cache, names))
        return None
    return os.path.join(cache, hits[0])


def search_state_bytes(cache):
    """The search index's state file in a cache folder, or None."""
    path = only_file(cache, 'search-')
    if not path:
        return None
    with open(path, 'rb') as f:
        return f.read()


def same_state(work, src, name, env):
    """The state an updated index leaves is the one a build from nothing
    leaves: a term the update did not rescore keeps what it had, so a
    stale score would show here even where the site's bytes hide it."""
    fresh = os.path.join(work, 'fresh')
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(fresh)
    r = build(src, os.path.join(fresh, 'site'), env=env)
    want = search_state_bytes(os.path.join(fresh, '.quire-cache'))
    got = search_state_bytes(os.path.join(work, '.quire-cache'))
    if r.returncode != 0 or want is None or got != want:
        fail('%s: the search index\'s state differs from a fresh '
             'build\'s' % name)
    shutil.rmtree(fresh)


def step(work, src, name, env, want_kept=True, want_rendered=None,
         note=None, want_parsed=None, want_unchanged=None,
         want_search_kept=False, want_updated=None, search_note=None,
         check_state=False):
    out = os.path.join(work, 'site')
    clean = os.path.join(work, 'clean')
    r = build(src, out, env=env)
    if r.returncode != 0:
        fail('%s: incremental build exited %d: %s' %
             (name, r.returncode, r.stderr[-500:]))
        return
    c = build(src, clean, '--no-cache', env=env)
    if c.returncode != 0:
        fail('%s: clean build exited %d' % (name, c.returncode))
        return
    # the diagnostics of a cached page are the ones it gave when rendered
    strip = lambda s: [l for l in s.splitlines()
                       if not l.startswith('quire build:')]
    if strip(r.stderr) != strip(c.stderr):
        fail('%s: diagnostics differ from a clean build:\n%s\n---\n%s' %
             (name, '\n'.join(strip(r.stderr)), '\n'.join(strip(c.stderr))))
    same_site(out, clean, name)
    m = SUMMARY.search(r.stderr)
    kept = int(m.group(2)) if m else 0
    rendered = int(m.group(1)) if m else None
    if want_kept and kept == 0:
        fail('%s: nothing was kept from the last site:\n%s' %
             (name, r.stderr[-300:]))
    if not want_kept and kept:
        fail('%s: %d pages kept where every page had to change' %
             (name, kept))
    if want_rendered is not None and rendered != want_rendered:
        fail('%s: %s pages rendered, expected %d' %
             (name, rendered, want_rendered))
    parsed = int(m.group(4)) if m else None
    if want_parsed is not None and parsed != want_parsed:
        fail('%s: %s sources parsed, expected %d' %
             (name, parsed, want_parsed))
    unchanged = '(nothing changed)' in r.stderr
    if want_unchanged is not None and unchanged != want_unchanged:
        fail('%s: the build %s "nothing changed"' %
             (name, 'did not say' if want_unchanged else 'said'))
    if note is not None and ('ignoring the cache: ' + note) not in r.stderr:
        fail('%s: no note "%s":\n%s' % (name, note, r.stderr[-300:]))
    # the search index updated from the last build's state, not built whole
    updated = '; search index updated' in r.stderr
    if want_updated is not None and updated != want_updated:
        fail('%s: the search index was %s' %
             (name, 'built whole' if want_updated else 'updated'))
    snote = "ignoring the search index's state: "
    if search_note is not None and (snote + search_note) not in r.stderr:
        fail('%s: no note "%s":\n%s' % (name, snote + search_note,
                                         r.stderr[-300:]))
    if search_note is None and snote in r.stderr:
        fail('%s: an unexpected note:\n%s' % (name, r.stderr[-300:]))
    if check_state:
        same_state(work, src, name, env)
    if MEMORY:
        memory_step(name, clean, want_search_kept, want_parsed)
    shutil.rmtree(clean)
    print('ok: %s (%s rendered, %d kept)' % (name, rendered, kept))
    return r.stderr


def edit(path, old, new):
    with open(path) as f:
        s = f.read()
    if old not in s:
        fail('test setup: %r not in %s' % (old, path))
    with open(path, 'w') as f:
        f.write(s.replace(old, new, 1))


def age(top, seconds):
    """Set every file's mtime back, as if written long before the cache."""
    t = __import__('time').time() - seconds
    for d, _, names in os.walk(top):
        for n in names:
            os.utime(os.path.join(d, n), (t, t))


def docs_tree(work, root, env):
    proj = os.path.join(work, 'proj')
    shutil.copytree(os.path.join(root, 'docs'), os.path.join(proj, 'docs'))
    shutil.copytree(os.path.join(root, 'lib'), os.path.join(proj, 'lib'),
                    ignore=lambda d, names: [
                        n for n in names
                        if os.path.isfile(os.path.join(d, n))
                        and not n.endswith('.h')])
    docs = os.path.join(proj, 'docs')
    util_h = os.path.join(proj, 'lib', 'util', 'util.h')

    r = build(docs, os.path.join(work, 'site'), env=env)
    if r.returncode != 0:
        fail('first build exited %d: %s' % (r.returncode, r.stderr[-500:]))
        return
    global MEMORY
    MEMORY = Memory(work, docs, env)
    first = MEMORY.build()
    if not first.startswith('ok '):
        fail('the first build in memory: %s' % first)
    step(work, docs, 'no change', env, want_rendered=0)
    # sources older than the cache are taken from it without reading
    age(proj, 60)
    step(work, docs, 'no change, old files', env, want_rendered=0,
         want_parsed=0)
    # aging the files changed their ctime: a build that starts within the
    # same second cannot trust them (racy), so the stamp it writes is
    # poisoned; one that starts a second later writes a stamp to trust
    time.sleep(1.1)
    step(work, docs, 'no change, from the unit cache', env,
         want_rendered=0, want_parsed=0)
    # settled: the stamp says nothing changed, the build stops at once
    step(work, docs, 'no change, the stamp', env, want_rendered=0,
         want_parsed=0, want_unchanged=True)
    edit(os.path.join(proj, 'lib', 'kdoc', 'kdoc.h'), 'qu_kind_name() -',
         'qu_kind_name() - (edited)')
    age(os.path.join(proj, 'lib', 'kdoc'), 30)
    step(work, docs, 'a comment, the file dated in the past', env,
         want_rendered=1, want_parsed=1, want_updated=True)
    placement = os.path.join(work, '.quire-cache', 'placement')
    refs = os.path.join(work, '.quire-cache', 'refs')
    placed = os.stat(placement).st_mtime_ns
    named = os.stat(refs).st_mtime_ns
    edit(util_h, 'qu_xmalloc() - malloc()', 'qu_xmalloc() - malloc(), edited,')
    step(work, docs, 'a comment', env, want_rendered=1, want_updated=True)
    # a comment's words place nothing anew: the cache's placement is taken,
    # and what comments name is neither read nor written
    if os.stat(placement).st_mtime_ns != placed:
        fail('a comment: the placement was made anew')
    if os.stat(refs).st_mtime_ns != named:
        fail('a comment: what comments name was written anew')
    # a member's name is placed (an anchor, a symbol): the placement the
    # cache keeps is not taken for it
    edit(util_h, ' * @worker: index of the worker', ' * @worker_no: index of the worker')
    edit(util_h, '\tunsigned worker;', '\tunsigned worker_no;')
    step(work, docs, 'a member renamed', env, want_kept=False)
    if os.stat(placement).st_mtime_ns == placed:
        fail('a member renamed: the placement was not made anew')
    edit(os.path.join(docs, 'json.md'), '\n\n', '\n\nA new sentence.\n\n')
    step(work, docs, "a page's text", env, want_rendered=1,
         want_updated=True)
    with open(os.path.join(docs, 'json.md'), 'a') as f:
        f.write('\n## A new heading\n\nText.\n')
    step(work, docs, 'a heading', env, want_kept=False, want_updated=False)
    with open(os.path.join(docs, 'new-page.md'), 'w') as f:
        f.write('# A new page\n\nIt names `qu_xmalloc()`.\n')
    step(work, docs, 'a new page', env, want_kept=False)
    os.rename(os.path.join(docs, 'new-page.md'),
              os.path.join(docs, 'renamed-page.md'))
    step(work, docs, 'a renamed page', env, want_kept=False)
    os.remove(os.path.join(docs, 'renamed-page.md'))
    step(work, docs, 'a removed page', env, want_kept=False)
    edit(util_h, '#endif', '/**\n * qu_new_fn() - a new function\n'
         ' * @x: its argument\n */\nvoid qu_new_fn(int x);\n\n#endif')
    step(work, docs, 'a new function', env, want_kept=False)
    os.remove(os.path.join(proj, 'lib', 'git', 'git.h'))
    step(work, docs, 'a removed source', env, want_kept=False)
    edit(os.path.join(docs, 'quire.yml'), 'title: quire', 'title: quire 2')
    step(work, docs, 'the configuration', env, want_kept=False)
    # raw HTML reads Markdown anew: the build in memory drops its memos
    with open(os.path.join(docs, 'quire.yml'), 'a') as f:
        f.write('allow_html: true\n')
    step(work, docs, 'raw HTML allowed', env, want_kept=False)
    edit(os.path.join(env['QUIRE_THEMES'], 'default', 'page.html'),
         '</footer>', '<p>theme edit</p></footer>')
    step(work, docs, 'the theme', env, want_kept=False)
    edit(os.path.join(env['QUIRE_THEMES'], 'default', 'static',
                      'quire.css'), '{', '{ /* edit */', )
    step(work, docs, "the theme's CSS", env, want_rendered=0)
    with open(os.path.join(env['QUIRE_THEMES'], 'default', 'static',
                           'added.css'), 'w') as f:
        f.write('p { }\n')
    step(work, docs, "a file added to the theme", env, want_rendered=0,
         want_unchanged=False)
    # the version comes from git: a first commit, then a tag, change it
    git = ['git', '-C', os.path.dirname(docs), '-c', 'user.name=t',
           '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false']
    subprocess.run(git + ['init', '-q'], check=True)
    subprocess.run(git + ['add', '-A'], check=True)
    subprocess.run(git + ['commit', '-qm', 'x'], check=True)
    age(os.path.dirname(docs), 60)
    step(work, docs, 'a first commit', env, want_kept=False,
         want_unchanged=False)
    step(work, docs, 'after the commit', env, want_rendered=0)
    subprocess.run(git + ['tag', 'v9.9'], check=True)
    # a build in the tag's second could not trust the new ref: wait
    time.sleep(1.1)
    step(work, docs, 'a tag', env, want_kept=False, want_unchanged=False)
    step(work, docs, 'after the tag', env, want_rendered=0,
         want_unchanged=True)

    back_tree(work, docs, env)

    # the cache's defences
    cache = os.path.join(work, '.quire-cache')
    state = only_file(cache, 'site-')
    if not state:
        return
    with open(state, 'rb') as f:
        good = f.read()

    def unstamp():
        """The stamp would say nothing changed: the defences go unused."""
        for n in os.listdir(cache):
            if n.startswith('stamp-'):
                os.remove(os.path.join(cache, n))

    stamp = only_file(cache, 'stamp-')
    if not stamp:
        return
    with open(stamp, 'r+b') as f:
        data = f.read()
        f.seek(len(data) // 2)
        f.write(bytes([data[len(data) // 2] ^ 1]))
    step(work, docs, 'a corrupt stamp', env, want_rendered=0,
         want_unchanged=False)
    with open(stamp, 'r+b') as f:
        f.truncate(10)
    step(work, docs, 'a truncated stamp', env, want_rendered=0,
         want_unchanged=False)
    # a build that fails once its site is in place (its depfile cannot be
    # written): the stamp it wrote beside the rest is dropped, and so is
    # the last one, which describes a site no longer in OUT
    edit(util_h, 'malloc(), edited,', 'malloc(), edited again,')
    r = build(docs, os.path.join(work, 'site'), '--depfile',
              os.path.join(work, 'none', 'site.d'), env=env)
    if r.returncode == 0 or 'site.d' not in r.stderr:
        fail('a depfile that cannot be written: exit %d, %s' %
             (r.returncode, r.stderr[-300:]))
    left = sorted(n for n in os.listdir(cache) if n.startswith('stamp-'))
    if left:
        fail('a build that failed after its swap left %s' % left)
    step(work, docs, 'after a build that failed', env, want_rendered=0,
         want_unchanged=False)

    def spoil(data, name, note):
        unstamp()
        with open(state, 'wb') as f:
            f.write(data)
        step(work, docs, name, env, want_kept=False, note=note)

    mid = len(good) // 2
    spoil(good[:mid] + bytes([good[mid] ^ 1]) + good[mid + 1:],
          'a corrupt cache', 'corrupt (checksum)')
    spoil(good[:mid], 'a truncated cache', 'corrupt (checksum)')
    spoil(b'', 'an empty cache', 'truncated')
    spoil(b'not a cache at all, but long enough', 'a foreign file',
          'corrupt (checksum)')
    # a well-formed cache of another version: rewrite the version string
    # and recompute the checksum with quire itself is not possible from
    # here, so the version field is changed and the checksum left: it
    # must be caught either way
    spoil(good.replace(b'quire-cache\n', b'quire-cachf\n', 1),
          'another format', 'corrupt (checksum)')
    with open(state, 'wb') as f:
        f.write(good)

    search_state(work, docs, env, unstamp)
    memo_files(work, docs, env, unstamp)

    # the unit cache (SQLite): each defect is noted, the build is clean
    import sqlite3
    db = os.path.join(cache, 'units.sqlite')
    if not os.path.exists(db):
        fail('no unit cache at %s' % db)
        return
    age(proj, 120)
    step(work, docs, 'units: settled', env, want_rendered=0)
    step(work, docs, 'units: all from the cache', env, want_rendered=0,
         want_parsed=0)

    def units_sql(sql, name, note):
        unstamp()
        c = sqlite3.connect(db)
        c.execute(sql)
        c.commit()
        c.close()
        step(work, docs, name, env, want_rendered=0, note=note)

    units_sql("UPDATE units SET body = x'00' || body WHERE rowid = (SELECT min(rowid) FROM units)",
              'units: a changed row', 'corrupt (checksum)')
    age(proj, 120)
    step(work, docs, 'units: settled again', env, want_rendered=0)
    units_sql("UPDATE meta SET value = '0.0.0' WHERE key = 'quire'",
              'units: another quire', 'written by another quire')
    units_sql("UPDATE meta SET value = '99' WHERE key = 'format'",
              'units: another format', 'written in another format')
    for f in ('-wal', '-shm'):
        if os.path.exists(db + f):
            os.remove(db + f)
    unstamp()
    with open(db, 'r+b') as f:
        f.write(b'this is not an SQLite database at all')
    step(work, docs, 'units: not a database', env, want_rendered=0,
         note='corrupt')
    unstamp()
    with open(db, 'r+b') as f:
        f.truncate(100)
    step(work, docs, 'units: truncated', env, want_rendered=0,
         note='corrupt')
    first_record(work, docs, env)
    back_record(work, docs, env)


def search_state(work, docs, env, unstamp):
    """The search index's state: each defect noted, the index built whole;
    a state that does not go with the site in OUT is not used."""
    cache = os.path.join(work, '.quire-cache')
    util_h = os.path.join(os.path.dirname(docs), 'lib', 'util', 'util.h')
    n = [0]

    def touch():
        """A comment edited: the index could be updated from the state."""
        n[0] += 1
        edit(util_h, 'qu_xmalloc() - malloc()',
             'qu_xmalloc() - malloc() %d' % n[0])
        unstamp()

    # the first edit makes the work tree dirty: a new version, every page
    touch()
    step(work, docs, 'search state: settled', env, want_kept=False)
    touch()
    step(work, docs, 'search state: updated', env, want_rendered=1,
         want_updated=True)
    # the state written for the next build, committed: no STATE.next
    state = only_file(cache, 'search-')
    if not state:
        return
    with open(state, 'rb') as f:
        good = f.read()
    mid = len(good) // 2

    def spoil(data, name, note):
        with open(state, 'wb') as f:
            f.write(data)
        touch()
        step(work, docs, name, env, want_rendered=1, want_updated=False,
             search_note=note)
        # the build wrote a good state again: the next one updates
        touch()
        step(work, docs, name + ', then', env, want_rendered=1,
             want_updated=True)
        with open(state, 'rb') as f:
            return f.read()

    good = spoil(good[:mid] + bytes([good[mid] ^ 1]) + good[mid + 1:],
                 'search state: corrupt', 'corrupt (checksum)')
    good = spoil(good[:mid], 'search state: truncated', 'truncated')
    good = spoil(b'x' * 300, 'search state: foreign',
                 'written in another format')
    good = spoil(good.replace(b'0.', b'9.', 1), 'search state: another quire',
                 'written by another quire')
    # the state of an index that did not reach OUT (a failed build's) is
    # not used, without a note
    idx = os.path.join(work, 'site', '_search', 'index.js')
    with open(idx, 'rb') as f:
        manifest = f.read()
    os.remove(idx)
    with open(idx, 'wb') as f:
        f.write(manifest.replace(b'"docs":', b'"docs" :', 1))
    touch()
    step(work, docs, 'search state: another site', env, want_rendered=1,
         want_updated=False)
    # a shard the state would keep but OUT lost: written again
    touch()
    step(work, docs, 'search state: settled again', env, want_rendered=1,
         want_updated=True)
    shards = sorted(os.listdir(os.path.join(work, 'site', '_search', 't')))
    os.remove(os.path.join(work, 'site', '_search', 't', shards[-1]))
    touch()
    step(work, docs, 'search state: a shard lost', env, want_rendered=1,
         want_updated=True)
    # OUT removed (rm -rf site): the state still gives every unchanged
    # page's postings, and no shard is taken from a site that is gone
    touch()
    shutil.rmtree(os.path.join(work, 'site'))
    step(work, docs, 'search state: the site removed', env, want_kept=False,
         want_updated=True)
    touch()
    step(work, docs, 'search state: the site removed, then', env,
         want_rendered=1, want_updated=True)


def first_build(work, src, env, what):
    """A build of src into work/site from nothing, cache and all."""
    shutil.rmtree(os.path.join(work, 'site'), ignore_errors=True)
    shutil.rmtree(os.path.join(work, '.quire-cache'), ignore_errors=True)
    r = build(src, os.path.join(work, 'site'), env=env)
    if r.returncode != 0:
        fail('%s: first build exited %d: %s' % (what, r.returncode, r.stderr))
    return r.returncode == 0


def memo_files(work, docs, env, unstamp):
    """What comments name (refs), objects.inv's compressed body, the
    placement, kept by content, and the unit cache's snapshot: a spoiled
    file is noted and not used. What comments name is read only by a
    build that places the items anew: the placement goes first."""
    cache = os.path.join(work, '.quire-cache')
    util_h = os.path.join(os.path.dirname(docs), 'lib', 'util', 'util.h')
    for name, what in (('refs', 'refs'), ('inventory', 'objects.inv'),
                       ('placement', 'placement'),
                       ('units.snap', 'units.snap')):
        path = os.path.join(cache, name)
        if not os.path.exists(path):
            fail('memo files: no %s in %s' % (name, os.listdir(cache)))
            continue
        with open(path, 'rb') as f:
            good = f.read()
        for label, data, note in (
                ('corrupt', good[:-5] + bytes([good[-5] ^ 1]) + good[-4:],
                 'corrupt (checksum)'),
                ('truncated', good[:8], 'truncated')):
            with open(path, 'wb') as f:
                f.write(data)
            if name == 'refs':
                os.unlink(os.path.join(cache, 'placement'))
            edit(util_h, 'qu_xmalloc() - malloc()',
                 'qu_xmalloc() - malloc() ' + name + label)
            unstamp()
            step(work, docs, 'memo files: %s %s' % (name, label), env,
                 want_rendered=1, note='%s: %s' % (what, note))


def search_tree(work, env):
    """The index updated from the state, against one built whole, on a
    tree made for it: terms held by more documents than an index keeps,
    terms that come and go, a record that changes without its terms."""
    src = os.path.join(work, 'ssrc')
    os.makedirs(os.path.join(src, 'lib'))
    words = ['zebra', 'yak', 'xenon', 'walrus', 'vole', 'urchin', 'tapir']
    for i in range(40):
        with open(os.path.join(src, 'lib', 'f%02d.c' % i), 'w') as f:
            for k in range(12):
                n = i * 12 + k
                # "common" is in every function: over 400 documents
                extra = ' '.join(words[j] for j in range(len(words))
                                 if (n >> j) & 1)
                f.write('/**\n * fn%d() - common helper %s\n'
                        ' * @arg: the common argument\n *\n'
                        ' * Does common work%s.\n */\n'
                        'int fn%d(int arg)\n{\n}\n\n' %
                        (n, extra, ' common' * (n % 5), n))
    if not first_build(work, src, env, 'search tree'):
        return
    f3 = os.path.join(src, 'lib', 'f03.c')
    # not a file's first item, whose brief is also the folder page's
    edit(f3, 'fn37() - common helper', 'fn37() - common helper quagga')
    step(work, src, 'search tree: a new word', env, want_rendered=1,
         want_updated=True,
         check_state=True)
    edit(f3, 'fn37() - common helper quagga zebra', 'fn37() - helper')
    step(work, src, 'search tree: words gone, one of them for good', env,
         want_rendered=1, want_updated=True,
         check_state=True)
    # the same words, other punctuation: the record's snippet changes
    edit(f3, 'Does common work common common.',
         'Does common work, common common!')
    step(work, src, 'search tree: a record, not its terms', env,
         want_rendered=1, want_updated=True, check_state=True)
    # a number in running text is no term, but the document is longer:
    # every score it has moves
    edit(f3, 'Does common work, common common!',
         'Does common work, common common! ' +
         ' '.join(str(10 + k) for k in range(60)))
    step(work, src, 'search tree: a longer text, the same terms', env,
         want_rendered=1, want_updated=True, check_state=True)
    # a document that was among the best of "common" drops out of it
    edit(os.path.join(src, 'lib', 'f01.c'),
         ' * Does common work common common common common.',
         ' * Does work.')
    step(work, src, 'search tree: out of a long list', env,
         want_rendered=1, want_updated=True,
         check_state=True)
    edit(os.path.join(src, 'lib', 'f01.c'), ' * Does work.',
         ' * Does common work common common common common common common.')
    step(work, src, 'search tree: into a long list', env,
         want_rendered=1, want_updated=True,
         check_state=True)
    # comments in over a quarter of the files: the index is built whole
    for i in range(16):
        p = os.path.join(src, 'lib', 'f%02d.c' % i)
        with open(p) as f:
            text = f.read()
        with open(p, 'w') as f:
            f.write(text.replace('helper', 'aide'))
    step(work, src, 'search tree: a large change', env, want_updated=False)


def back_tree(work, docs, env):
    """The last site kept in the cache and composed: spoiled, repaired."""
    cache = os.path.join(work, '.quire-cache')
    back, site = only_file(cache, 'back-'), os.path.join(work, 'site')
    if not back:
        return
    # an unchanged file keeps its inode and time: rsync and caches skip it
    before = {k: os.stat(os.path.join(site, k)).st_ino
              for k in ('index.html', 'objects.inv', '_static/quire.css')}
    step(work, docs, 'back tree: no change', env, want_rendered=0)
    for k, ino in before.items():
        if os.stat(os.path.join(site, k)).st_ino != ino:
            fail('back tree: %s was rewritten with the same bytes' % k)
    pages = sorted(k for k in tree(back) if k.endswith('.html'))
    if len(pages) < 3:
        fail('back tree: only %d pages in %s' % (len(pages), back))
        return
    # a killed compose leaves anything: missing, foreign, changed files
    os.remove(os.path.join(back, pages[0]))
    with open(os.path.join(back, 'junk.html'), 'w') as f:
        f.write('left by a killed build')
    os.makedirs(os.path.join(back, 'junk', 'deeper'))
    with open(os.path.join(back, 'junk', 'deeper', 'x.js'), 'w') as f:
        f.write('x')
    p = os.path.join(back, pages[1])
    with open(p, 'rb') as f:
        data = f.read()
    os.remove(p)
    with open(p, 'wb') as f:
        f.write(data.replace(b'<', b'[', 3))
    step(work, docs, 'back tree: spoiled', env, want_rendered=0)
    for k in ('junk.html', 'junk'):
        if os.path.exists(os.path.join(site, k)):
            fail('back tree: %s reached the site' % k)
    # a back tree of another site (no marker) is not composed
    os.remove(os.path.join(back, '.quire-site'))
    step(work, docs, 'back tree: not a site', env, want_rendered=0)


BACK_REC = re.compile(r'back tree from its record, (\d+) of (\d+) folders '
                      r'listed')


def first_record(work, docs, env):
    """A site written whole with a new cache leaves a record of OUT beside
    the one of the back tree of links to it, each named by its tree's
    inode: the next build looks OUT's pages up in OUT's record where its
    folders are as recorded (in a site this small, written in a moment,
    every folder is too new to be trusted), and takes the back tree's
    files from its record."""
    cache = os.path.join(work, '.quire-cache')
    site = os.path.join(work, 'site')
    for d in (cache, site):
        shutil.rmtree(d, ignore_errors=True)
    tenv = dict(env, QUIRE_TIMING='1')
    step(work, docs, 'first record: a site written whole', env,
         want_kept=False)
    back = only_file(cache, 'back-')
    recs = sorted(n.rsplit('.', 1)[1] for n in os.listdir(cache)
                  if n.startswith('tree-'))
    want = sorted('%x' % os.stat(t).st_ino for t in (site, back or site))
    if recs != want:
        fail('first record: records %s, not of OUT and the back tree (%s)' %
             (recs, want))
    edit(os.path.join(docs, 'json.md'), '\n\n', '\n\nFirst record.\n\n')
    err = step(work, docs, 'first record: an edit', tenv,
               want_rendered=1) or ''
    if not re.search(r"OUT's pages: \d+ of \d+ from its record", err):
        fail("first record: OUT's record not read:\n%s" % err[-400:])
    if not BACK_REC.search(err):
        fail('first record: the compose walked the back tree:\n%s' %
             err[-400:])


HUGE = re.compile(r'huge pages after (\w+): (\d+) of (\d+) changed')


def huge_pages(work, env):
    """A build asks for 2 MB pages once it knows its work is large: more
    than one in 64 of its inputs changed, or of its pages are rendered.
    In a site of 200 pages: a first build asks after the stamp (there is
    none to go by); an edit to one page never; a change to the
    configuration (every page rendered) after the keys."""
    tenv = dict(env, QUIRE_TIMING='1')
    top = os.path.join(work, 'huge')
    docs = os.path.join(top, 'docs')
    os.makedirs(docs)
    with open(os.path.join(docs, 'quire.yml'), 'w') as f:
        f.write('title: huge\n')
    with open(os.path.join(docs, 'index.md'), 'w') as f:
        f.write('# Huge\n\n' + ''.join(
            '- [Page %d](p%d.md)\n' % (i, i) for i in range(199)))
    for i in range(199):
        with open(os.path.join(docs, 'p%d.md' % i), 'w') as f:
            f.write('# Page %d\n\nText of page %d.\n' % (i, i))
    # the files changed in a second before the build's: the stamp trusts
    # them, as it would a real tree's (one it does not trust counts as
    # changed: the page edited below, at the configuration's change)
    time.sleep(1.01 - time.time() % 1)
    err = step(top, docs, 'huge pages: a first build', tenv,
               want_kept=False) or ''
    m = HUGE.search(err)
    if not m or m.group(1) != 'stamp' or m.group(3) != '0':
        fail('huge pages: a first build did not ask after the stamp '
             '(%s):\n%s' % (m.group(0) if m else 'not asked', err[-400:]))
    edit(os.path.join(docs, 'p7.md'), 'Text', 'The text')
    err = step(top, docs, 'huge pages: one page', tenv,
               want_rendered=1) or ''
    m = HUGE.search(err)
    if m or 'quire build: stamp' not in err:
        fail('huge pages: one edited page asked for them (%s):\n%s' %
             (m.group(0) if m else 'no stamp phase', err[-400:]))
    edit(os.path.join(docs, 'quire.yml'), 'title: huge', 'title: large')
    err = step(top, docs, 'huge pages: the configuration', tenv,
               want_kept=False) or ''
    m = HUGE.search(err)
    if (m.groups() if m else None) != ('keys', '200', '200'):
        fail('huge pages: every page rendered, not asked after the keys'
             ' (%s):\n%s' % (m.group(0) if m else 'not asked', err[-400:]))


def back_record(work, docs, env):
    """The compose takes the back tree's files from the record of the tree
    it made two builds before, and lists only the folders whose stat(2)
    data changed since: what was done to that tree in between is seen."""
    cache = os.path.join(work, '.quire-cache')
    site = os.path.join(work, 'site')
    back = only_file(cache, 'back-')
    page = os.path.join(docs, 'json.md')
    tenv = dict(env, QUIRE_TIMING='1')
    if not back:
        return

    def one(name, n, rendered=1):
        edit(page, '\n\n', '\n\nBack record %d.\n\n' % n)
        return step(work, docs, name, tenv, want_rendered=rendered) or ''

    def taken(name, err, at_least):
        m = BACK_REC.search(err)
        if not m:
            fail('%s: the compose walked the back tree:\n%s' %
                 (name, err[-400:]))
        elif not at_least <= int(m.group(1)) < int(m.group(2)):
            fail('%s: %s of %s folders listed' % ((name,) + m.groups()))

    # OUT and the back tree trade places at each build: once each has
    # been composed, every compose has a record
    one('back record: a first edit', 1, None)
    for n in (2, 3):
        one('back record: edit %d' % n, n)
    err = one('back record: edit 4', 4)
    taken('back record: edit 4', err, 1)
    # OUT's pages found in OUT's own record, where its folders hold
    m = re.search(r"OUT's pages: (\d+) of (\d+) from its record", err)
    if not m or not 0 < int(m.group(1)) < int(m.group(2)):
        fail("back record: OUT's pages not from its record:\n%s" %
             err[-400:])
    recs = [n for n in os.listdir(cache) if n.startswith('tree-')]
    if len(recs) != 2:
        fail('back record: records in the cache: %s' % recs)

    def inner(top):
        return sorted(k for k in tree(top) if k.endswith('.html') and
                      '/' in k and not k.startswith('_'))

    # the back tree spoiled: a file added, one removed, one replaced
    pages = inner(back)
    if len(pages) < 3:
        fail('back record: only %d pages in folders' % len(pages))
        return
    with open(os.path.join(back, os.path.dirname(pages[0]),
                           'stray.html'), 'w') as f:
        f.write('left by a killed build')
    os.remove(os.path.join(back, pages[1]))
    p = os.path.join(back, pages[2])
    with open(p, 'rb') as f:
        data = f.read()
    with open(p + '.tmp', 'wb') as f:
        f.write(data.replace(b'<', b'[', 3))
    os.rename(p + '.tmp', p)
    taken('back record: the back tree spoiled',
          one('back record: the back tree spoiled', 5),
          len({os.path.dirname(k) for k in pages[:3]}))
    # OUT changed by hand: the back tree a build later
    pages = inner(site)
    with open(os.path.join(site, os.path.dirname(pages[0]),
                           'stray.html'), 'w') as f:
        f.write('put in OUT by hand')
    os.remove(os.path.join(site, pages[1]))
    one('back record: OUT changed by hand, a build on', 6, 2)
    taken('back record: OUT changed by hand, two builds on',
          one('back record: OUT changed by hand, two builds on', 7),
          len({os.path.dirname(k) for k in pages[:2]}))
    # a spoiled record is not taken: the tree is walked
    for n in os.listdir(cache):
        if n.startswith('tree-'):
            with open(os.path.join(cache, n), 'r+b') as f:
                f.seek(40)
                f.write(b'\xff\xff')
    err = one('back record: spoiled records', 8)
    if 'back tree walked' not in err:
        fail('back record: a spoiled record was taken:\n%s' % err[-400:])


def zero_tree(work, env):
    src = os.path.join(work, 'zsrc')
    os.makedirs(os.path.join(src, 'lib'))
    os.makedirs(os.path.join(src, 'include'))
    with open(os.path.join(src, 'include', 'a.h'), 'w') as f:
        f.write('/**\n * struct a - a thing\n * @n: a number\n */\n'
                'struct a { int n; };\n')
    with open(os.path.join(src, 'lib', 'a.c'), 'w') as f:
        f.write('/**\n * a_new() - make a &struct a\n * @n: its number\n'
                ' *\n * Return: the thing.\n */\nstruct a *a_new(int n)\n'
                '{\n}\nEXPORT_SYMBOL(a_new);\n\n'
                '/**\n * a_free() - free one, see a_new()\n * @a: it\n */\n'
                'void a_free(struct a *a)\n{\n}\n')
    with open(os.path.join(src, 'lib', 'b.c'), 'w') as f:
        f.write('/**\n * b_do() - do b\n * @x: x\n */\nint b_do(int x)\n'
                '{\n}\n')
    if not first_build(work, src, env, 'zero-config'):
        return
    global MEMORY
    MEMORY = Memory(work, src, env)
    first = MEMORY.build()
    if not first.startswith('ok '):
        fail('zero-config: the first build in memory: %s' % first)
    step(work, src, 'zero-config: no change', env, want_rendered=0)
    # b_do()'s brief is also b.c's line on the folder page
    edit(os.path.join(src, 'lib', 'b.c'), 'do b', 'do b, edited')
    step(work, src, 'zero-config: a file\'s brief', env, want_rendered=2)
    edit(os.path.join(src, 'lib', 'a.c'), 'a_free() - free one',
         'a_free() - free one, edited')
    step(work, src, 'zero-config: a comment with a reference', env,
         want_rendered=1, want_search_kept=True)
    # the same words: the search index's bytes do not change, and no
    # file of it is written again
    edit(os.path.join(src, 'lib', 'a.c'), '@n: its number',
         '@n: its number.')
    step(work, src, "zero-config: a parameter's punctuation", env,
         want_rendered=1, want_search_kept='all')
    # a reference added changes the referenced item's "Referenced by"
    edit(os.path.join(src, 'lib', 'b.c'), 'do b, edited',
         'do b, then a_free()')
    step(work, src, 'zero-config: a new reference', env, want_rendered=3)
    with open(os.path.join(src, 'lib', 'c.c'), 'w') as f:
        f.write('/**\n * c_do() - do c\n */\nvoid c_do(void)\n{\n}\n')
    step(work, src, 'zero-config: a new file', env, want_kept=False)
    os.remove(os.path.join(src, 'lib', 'c.c'))
    step(work, src, 'zero-config: a removed file', env, want_kept=False)
    # a source in a new folder below a folder that holds no source (nor
    # does the root): every folder the walk listed is in the stamp
    os.makedirs(os.path.join(src, 'drivers', 'one'))
    with open(os.path.join(src, 'drivers', 'one', 'd1.h'), 'w') as f:
        f.write('/**\n * d1() - one\n */\nvoid d1(void);\n')
    # older than the next build's start, so that its stamp trusts them
    time.sleep(1.1)
    step(work, src, 'zero-config: a folder of folders', env, want_kept=False)
    step(work, src, 'zero-config: a folder of folders, again', env,
         want_rendered=0, want_unchanged=True)
    os.makedirs(os.path.join(src, 'drivers', 'two'))
    with open(os.path.join(src, 'drivers', 'two', 'd2.h'), 'w') as f:
        f.write('/**\n * d2() - two\n */\nvoid d2(void);\n')
    step(work, src, 'zero-config: a source in a new folder', env,
         want_kept=False, want_unchanged=False)


def graph_tree(work, env):
    """A Sphinx project with graphs: a .dot file is an input, and a page
    showing it is rendered again when it breaks or mends."""
    src = os.path.join(work, 'gsrc')
    os.makedirs(src)
    files = {
        'conf.py': "project = 'Graphs'\n",
        'index.rst': 'Graphs\n======\n\n.. toctree::\n\n   fig\n   plain\n\n'
                     '.. kernel-render:: DOT\n\n   digraph { x -> y }\n',
        'fig.rst': 'Figure\n======\n\n.. kernel-figure:: g.dot\n\n'
                   '   The graph.\n',
        'plain.rst': 'Plain\n=====\n\nNo graph here.\n',
        'g.dot': 'digraph g {\n\ta -> b;\n}\n',
    }
    for name, text in files.items():
        with open(os.path.join(src, name), 'w') as f:
            f.write(text)
    out = os.path.join(work, 'site')
    if not first_build(work, src, env, 'graphs'):
        return
    global MEMORY
    MEMORY = Memory(work, src, env)
    first = MEMORY.build()
    if not first.startswith('ok '):
        fail('graphs: the first build in memory: %s' % first)
    # an input changed in the second a build started is never trusted
    time.sleep(1.1)
    build(src, out, env=env)
    step(work, src, 'graphs: no change', env, want_rendered=0,
         want_unchanged=True)
    # the page with kernel-render writes its picture as it renders, so
    # it is rendered in every build; fig.html's HTML is the same
    edit(os.path.join(src, 'g.dot'), 'a -> b;', 'a -> b -> c;')
    step(work, src, 'graphs: a .dot file edited', env, want_rendered=1)
    with open(os.path.join(out, 'g.svg')) as f:
        if '<title>c</title>' not in f.read():
            fail('graphs: g.svg was not drawn again')
    # fig.html shows the DOT now, then the graph again: which graphs
    # were drawn is in every page's key, so every page is rendered
    edit(os.path.join(src, 'g.dot'), 'a -> b -> c;', 'a -> ;')
    step(work, src, 'graphs: a .dot file broken', env, want_kept=False,
         want_rendered=3)
    with open(os.path.join(out, 'fig.html')) as f:
        if 'a -&gt; ;' not in f.read():
            fail('graphs: fig.html does not show the broken DOT')
    edit(os.path.join(src, 'g.dot'), 'a -> ;', 'a -> b;')
    step(work, src, 'graphs: a .dot file mended', env, want_kept=False,
         want_rendered=3)
    depfile = os.path.join(work, 'site.d')
    r = build(src, out, '--depfile', depfile, env=env)
    with open(depfile) as f:
        if 'g.dot' not in f.read():
            fail('graphs: the depfile does not name g.dot')


def main():
    global QUIRE, REBUILD, MEMORY
    QUIRE, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    REBUILD = os.path.abspath(sys.argv[3])
    with tempfile.TemporaryDirectory() as work:
        themes = os.path.join(work, 'themes')
        shutil.copytree(os.path.join(root, 'themes', 'default'),
                        os.path.join(themes, 'default'))
        env = dict(os.environ, QUIRE_THEMES=themes, QUIRE_NO_PROGRESS='1')
        docs_tree(work, root, env)
        if MEMORY:
            MEMORY.close()
            MEMORY = None
        search_tree(work, env)
        zero_tree(work, env)
        if MEMORY:
            MEMORY.close()
            MEMORY = None
        graph_tree(work, env)
        if MEMORY:
            MEMORY.close()
            MEMORY = None
        huge_pages(work, env)
    if FAILS:
        print('%d failed' % len(FAILS))
        return 1
    print('all incremental steps equal clean builds')
    return 0


if __name__ == '__main__':
    sys.exit(main())
