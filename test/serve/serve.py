#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quire serve on an ephemeral loopback port.

A copy of quire's own docs (and the headers they document) is served; the
test checks, over real sockets:

- pages and assets with the right Content-Type, Cache-Control: no-cache
  and nosniff, the reload script in served pages and never in what
  quire build writes;
- GET and HEAD only (405 otherwise), and at least 30 traversal attempts
  (plain, percent-encoded, doubly encoded, NUL, backslash, symlinks out)
  refused with 400 or 404, never a file from outside;
- 200 concurrent connections all answered;
- 50 event streams that all hear of the build an edit causes;
- an edit: one build event naming the page, and the new text served;
- a broken edit (a theme that does not exist): an event with ok false and
  the message, the old page still served; the fix clears it;
- a burst of 200 writes in 100 ms: one rebuild;
- SIGTERM: a clean exit with status 0, the private folder removed.

usage: serve.py QUIRE SOURCE_ROOT
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('FAIL: ' + msg)


def ok(msg):
    print('ok: ' + msg)


class Server:
    def __init__(self, quire, docs, env, *extra):
        self.p = subprocess.Popen([quire, 'serve', docs, '--port', '0'] +
                                  list(extra),
                                  stderr=subprocess.PIPE, text=True,
                                  env=env)
        self.lines = []
        self.port = None
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        with self.cond:
            self.cond.wait_for(lambda: self.port or self.p.poll() is not None,
                               timeout=60)
        if not self.port:
            raise SystemExit('quire serve did not start: %s' %
                             ''.join(self.lines))

    def _read(self):
        for line in self.p.stderr:
            with self.cond:
                self.lines.append(line)
                m = re.search(r'http://127\.0\.0\.1:(\d+)/', line)
                if m and not self.port:
                    self.port = int(m.group(1))
                self.cond.notify_all()

    def builds(self):
        with self.cond:
            return sum(1 for l in self.lines
                       if re.match(r'quire serve: build \d+', l))

    def wait_builds(self, n, timeout=30):
        with self.cond:
            return self.cond.wait_for(lambda: sum(
                1 for l in self.lines
                if re.match(r'quire serve: build \d+', l)) >= n,
                timeout=timeout)

    def get(self, path, method='GET'):
        c = http.client.HTTPConnection('127.0.0.1', self.port, timeout=20)
        c.putrequest(method, path, skip_host=False, skip_accept_encoding=True)
        c.endheaders()
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), body


def raw(port, request, timeout=20):
    """Send bytes as they are, for paths http.client would not send."""
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    s.sendall(request)
    data = b''
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except TimeoutError:
        pass  # a request the server still waits to see the end of
    s.close()
    m = re.match(rb'HTTP/1\.[01] (\d+)', data)
    return (int(m.group(1)) if m else 0), data


class Stream:
    """One event-stream client, collecting the build events it hears."""

    def __init__(self, port):
        self.events = []
        self.cond = threading.Condition()
        self.s = socket.create_connection(('127.0.0.1', port), timeout=60)
        self.s.sendall(b'GET /_quire/events HTTP/1.1\r\nHost: x\r\n'
                       b'Accept: text/event-stream\r\n\r\n')
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b''
        try:
            while True:
                chunk = self.s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                for m in re.finditer(rb'event: build\r?\ndata: ([^\r\n]*)',
                                     buf):
                    with self.cond:
                        self.events.append(json.loads(m.group(1)))
                        self.cond.notify_all()
                buf = buf[buf.rfind(b'\n') + 1:] if b'event: build' in buf \
                    else buf
        except OSError:
            pass

    def wait(self, n, timeout=30):
        with self.cond:
            return self.cond.wait_for(lambda: len(self.events) >= n,
                                      timeout=timeout)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def types_and_headers(srv, docs, quire, env, work):
    want = {'/': 'text/html; charset=utf-8',
            '/index.html': 'text/html; charset=utf-8',
            '/_static/quire.css': 'text/css; charset=utf-8',
            '/_static/quire.js': 'text/javascript; charset=utf-8',
            '/_static/favicon.svg': 'image/svg+xml',
            '/objects.inv': 'application/octet-stream',
            '/_quire/reload.js': 'text/javascript; charset=utf-8'}
    for path, t in want.items():
        st, h, body = srv.get(path)
        if st != 200 or h.get('content-type') != t:
            fail('%s: %d %s, expected 200 %s' %
                 (path, st, h.get('content-type'), t))
        if h.get('cache-control') != 'no-cache' or \
                h.get('x-content-type-options') != 'nosniff':
            fail('%s: headers %s' % (path, h))
    st, h, body = srv.get('/commands')
    if st != 301 or h.get('location') != '/commands/':
        fail('/commands: %d %s, expected a 301 to /commands/' %
             (st, h.get('location')))
    st, h, body = srv.get('/index.html', 'HEAD')
    if st != 200 or body:
        fail('HEAD: %d with %d bytes of body' % (st, len(body)))
    st, h, body = srv.get('/no-such-page.html')
    if st != 404 or b'reload.js' not in body:
        fail('a missing page: %d, expected the site\'s 404 page' % st)
    for m in ('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'):
        st, h, _ = srv.get('/', m)
        if st != 405 or 'GET' not in h.get('allow', ''):
            fail('%s: %d, expected 405 with Allow' % (m, st))
    st, h, body = srv.get('/index.html')
    if body.count(b'/_quire/reload.js') != 1:
        fail('the served page does not carry the reload script once')
    # quire build never writes it
    out = os.path.join(work, 'built')
    subprocess.run([quire, 'build', docs, '-o', out, '-q'], env=env,
                   check=True)
    for d, _, names in os.walk(out):
        for n in names:
            with open(os.path.join(d, n), 'rb') as f:
                if b'<script src="/_quire/' in f.read():
                    fail('quire build wrote the reload script into %s' % n)
    ok('content types, headers, redirects, 404, methods, the script')


def traversal(srv, work):
    outside = os.path.join(work, 'secret.txt')
    with open(outside, 'w') as f:
        f.write('SECRET-OUTSIDE\n')
    paths = [
        '/../secret.txt', '/../../secret.txt', '/../../../etc/passwd',
        '/%2e%2e/secret.txt', '/%2E%2E/%2E%2E/etc/passwd',
        '/%2e%2e%2fsecret.txt', '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
        '/..%2fsecret.txt', '/%252e%252e/secret.txt',
        '/%252e%252e%252f%252e%252e%252fetc%252fpasswd',
        '/_static/../../secret.txt', '/_static/%2e%2e/%2e%2e/secret.txt',
        '/./index.html', '/_static/./quire.css', '/%2e/index.html',
        '/index.html%00.txt', '/%00', '/_static%00/../../secret.txt',
        '/..\\secret.txt', '/_static\\..\\..\\secret.txt',
        '/%5c..%5csecret.txt', '/%c0%ae%c0%ae/secret.txt',
        '/%', '/%zz', '/%2', '//etc/passwd', '/etc/passwd',
        '/proc/self/environ', '/out', '/out/secret.txt',
        '/loop/x', '/%2e%2e', '/..', '/.', '/a/../../secret.txt',
        '/' + 'a/' * 3000,
    ]
    n = 0
    for p in paths:
        st, data = raw(srv.port, b'GET ' + p.encode() +
                       b' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        n += 1
        if st not in (400, 404, 414) or b'SECRET-OUTSIDE' in data or \
                b'root:' in data:
            fail('traversal %r: status %d' % (p, st))
    # no request line at all, and a garbage one
    for junk in (b'\r\n\r\n', b'GARBAGE\r\n\r\n', b'GET\r\n\r\n',
                 b'GET / HTTP/9.9\r\n\r\n'):
        st, data = raw(srv.port, junk, timeout=2)
        n += 1
        if st == 200 or b'SECRET' in data:
            fail('junk request %r: %d' % (junk, st))
    if n < 30:
        fail('only %d traversal attempts' % n)
    # the server still answers after all of it
    st, _, _ = srv.get('/index.html')
    if st != 200:
        fail('the server stopped answering after the attempts')
    ok('%d traversal and junk requests refused' % n)


def concurrent(srv):
    results = []
    lock = threading.Lock()

    def one():
        try:
            st, _, body = srv.get('/index.html')
            r = st == 200 and b'</html>' in body
        except OSError as e:
            r = False
        with lock:
            results.append(r)

    ts = [threading.Thread(target=one) for _ in range(200)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    good = sum(results)
    if good != 200:
        fail('200 concurrent connections: %d answered' % good)
    else:
        ok('200 concurrent connections answered')


def edits(srv, docs, env):
    page = os.path.join(docs, 'json.md')
    streams = [Stream(srv.port) for _ in range(50)]
    time.sleep(0.5)
    n0 = srv.builds()
    with open(page, 'a') as f:
        f.write('\nA sentence added while serving.\n')
    if not srv.wait_builds(n0 + 1):
        fail('an edit gave no rebuild')
        return
    heard = sum(1 for s in streams if s.wait(1, 10))
    if heard != 50:
        fail('50 event streams: %d heard the build' % heard)
    else:
        ok('50 event streams all heard the build')
    ev = streams[0].events[-1] if streams[0].events else {}
    if not ev.get('ok') or 'json.html' not in ev.get('changed', []):
        fail('the event does not name json.html: %s' % ev)
    elif len(ev['changed']) != 1:
        fail('an edit to one page changed %s' % ev['changed'])
    st, _, body = srv.get('/json.html')
    if b'A sentence added while serving.' not in body:
        fail('the new text is not served')
    else:
        ok('an edit: one event naming the page, the new text served')

    # a broken build keeps the old site and says why
    cfg = os.path.join(docs, 'quire.yml')
    with open(cfg) as f:
        good = f.read()
    n1 = srv.builds()
    with open(cfg, 'w') as f:
        f.write(good + 'theme: no-such-theme\n')
    srv.wait_builds(n1 + 1)
    streams[0].wait(2, 10)
    ev = streams[0].events[-1] if streams[0].events else {}
    if ev.get('ok') is not False or 'no-such-theme' not in ev.get('error', ''):
        fail('a broken build: event %s' % ev)
    st, _, body = srv.get('/json.html')
    if st != 200 or b'A sentence added while serving.' not in body:
        fail('a broken build did not keep the last good page')
    late = Stream(srv.port)
    if not late.wait(1, 10) or late.events[0].get('ok') is not False:
        fail('a tab opened after the failure is not told of it')
    late.close()
    with open(cfg, 'w') as f:
        f.write(good)
    srv.wait_builds(n1 + 2)
    streams[0].wait(3, 10)
    ev = streams[0].events[-1] if streams[0].events else {}
    if not ev.get('ok'):
        fail('the fix did not clear the failure: %s' % ev)
    else:
        ok('a broken build: the overlay event, the old page; the fix clears it')
    for s in streams:
        s.close()

    # a burst of 200 writes in 100 ms is one rebuild
    time.sleep(0.5)
    n2 = srv.builds()
    t0 = time.time()
    for i in range(200):
        with open(page, 'a') as f:
            f.write('burst %d\n' % i)
        time.sleep(0.0002)
    took = time.time() - t0
    srv.wait_builds(n2 + 1)
    time.sleep(1.5)
    got = srv.builds() - n2
    if got != 1:
        fail('a burst of 200 writes in %.0f ms gave %d rebuilds' %
             (took * 1000, got))
    else:
        ok('a burst of 200 writes in %.0f ms gave one rebuild' %
           (took * 1000))
    # the sources no edit touched come from the last build, in memory
    last = [l for l in srv.lines
            if re.match(r'quire serve: build \d+', l)][-1]
    m = re.search(r'(\d+) of (\d+) sources parsed, (\d+) from memory',
                  last)
    if not m or int(m.group(3)) == 0 or int(m.group(1)) != 0:
        fail('a rebuild read its sources anew: %s' % last)
    else:
        ok('a rebuild took %s of %s sources from memory' %
           (m.group(3), m.group(2)))


def clean_build(quire, docs, env, work, what):
    """A clean build of @docs into @work/clean-@what, or None."""
    clean = os.path.join(work, 'clean-' + what)
    r = subprocess.run([quire, 'build', docs, '-o', clean, '--no-cache'],
                       capture_output=True, env=env)
    if r.returncode != 0:
        fail('clean build for the %s check exited %d' % (what, r.returncode))
        return None
    return clean


def search_follows(srv, quire, docs, env, work):
    """The search index follows the reload and ends as a clean build's."""
    n = srv.builds()
    with open(os.path.join(docs, 'json.md'), 'a') as f:
        f.write('\nZyzzyvaword appears once.\n')
    srv.wait_builds(n + 1)
    settle(srv, n + 1)
    clean = clean_build(quire, docs, env, work, 'search')
    if not clean:
        return
    top = os.path.join(clean, '_search')
    differ = []
    for d, _, names in os.walk(top):
        for name in names:
            rel = os.path.relpath(os.path.join(d, name), clean)
            st, _, body = srv.get('/' + rel)
            with open(os.path.join(d, name), 'rb') as f:
                if st != 200 or body != f.read():
                    differ.append(rel)
    shutil.rmtree(clean)
    if differ:
        fail('the served search index is not a clean build\'s: %s' %
             differ[:5])
    else:
        ok('the search index follows the reload, as a clean build has it')


def watches_follow_inputs(srv, docs, proj):
    """A rebuild after writes only keeps its watches; one that reads a
    new input (a page's new directive names a source) watches it, and a
    new folder with a new page is watched from the build that finds it."""
    src_dir = os.path.join(proj, 'lib', 'extra')
    os.makedirs(src_dir)
    src = os.path.join(src_dir, 'extra.h')
    with open(src, 'w') as f:
        f.write('/**\n * extra_fn() - first words\n */\nint extra_fn(void);\n')
    page = os.path.join(docs, 'json.md')

    def until(path, mark, what):
        deadline = time.time() + 10
        while time.time() < deadline:
            st, _, body = srv.get(path)
            if st == 200 and mark.encode() in body:
                return True
            time.sleep(0.05)
        fail(what)
        return False

    n = srv.builds()
    with open(page, 'a') as f:
        f.write('\n```{kernel-doc} lib/extra/extra.h\n```\n')
    if not srv.wait_builds(n + 1) or \
            not until('/json.html', 'first words', 'the new directive'):
        return
    n = srv.builds()
    time.sleep(0.3)
    with open(src, 'w') as f:
        f.write('/**\n * extra_fn() - second words\n */\nint extra_fn(void);\n')
    if until('/json.html', 'second words',
             'a source a page began to read after a write is not watched'):
        ok('a write that makes a page read a new source watches it')
    sub = os.path.join(docs, 'newdir')
    os.makedirs(sub)
    with open(os.path.join(sub, 'fresh.md'), 'w') as f:
        f.write('# Fresh\n\nfirst fresh words\n')
    if not until('/newdir/fresh.html', 'first fresh words',
                 'a page in a new folder is not built'):
        return
    # writes only: the watches of the build before stand
    with open(page, 'a') as f:
        f.write('\nA write to an input only.\n')
    until('/json.html', 'A write to an input only.', 'a plain write')
    time.sleep(0.3)
    with open(os.path.join(sub, 'fresh.md'), 'a') as f:
        f.write('\nsecond fresh words\n')
    if until('/newdir/fresh.html', 'second fresh words',
             'a page of a new folder is not watched after a plain write'):
        ok('a new folder and its page are watched, also after writes')
    # builds after writes only are told which sources changed: the one
    # written must be read again, twice running. (A file written within
    # two seconds of the last build's start is looked at anyway: the
    # source is left older than that, and a page write builds between.)
    for i, words in enumerate(('third words', 'fourth words')):
        time.sleep(2.5)
        with open(page, 'a') as f:
            f.write('\nA page write %d.\n' % i)
        if not until('/json.html', 'A page write %d.' % i, 'a page write'):
            return
        time.sleep(0.3)
        with open(src, 'w') as f:
            f.write('/**\n * extra_fn() - %s\n */\nint extra_fn(void);\n'
                    % words)
        if not until('/json.html', words,
                     'a source written after plain writes: %s' % words):
            return
    ok('a source written between plain writes is read again')


def wait_search(srv, n, timeout=30):
    """Wait for build @n's search index (or a build after it)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with srv.cond:
            seen = 0
            for l in srv.lines:
                if re.match(r'quire serve: build \d+', l):
                    seen += 1
                elif seen >= n and 'quire serve: search index' in l:
                    return True
        time.sleep(0.05)
    return False


def settle(srv, n, timeout=30):
    """Wait for build @n's search index, then until no build follows it
    for half a second: one change can reach the watcher as events a build
    apart (a tree removed: its files, then its folder), and the site is
    compared once the last of those builds is done."""
    deadline = time.time() + timeout
    while wait_search(srv, n, max(deadline - time.time(), 0.1)):
        time.sleep(0.5)
        if srv.builds() == n:
            return True
        n = srv.builds()
    return False


def tree_files(top):
    got = {}
    for d, dirs, names in os.walk(top):
        for name in names + [x for x in dirs
                             if os.path.islink(os.path.join(d, x))]:
            path = os.path.join(d, name)
            rel = os.path.relpath(path, top)
            if os.path.islink(path):
                got[rel] = 'symlink'
            else:
                with open(path, 'rb') as f:
                    got[rel] = f.read()
    return got


def site_is_clean_build(srv, quire, docs, env, work, site):
    """After every edit above, and a page and its folder removed, the
    served folder (updated in place, file by file) holds what a clean
    build writes: the same files, byte for byte, and no other, and no
    folder left empty."""
    def served(path, mark):
        deadline = time.time() + 10
        while time.time() < deadline:
            st, _, body = srv.get(path)
            if (st == 200 and mark.encode() in body) or \
                    (mark == '' and st == 404):
                return True
            time.sleep(0.05)
        return False

    # after writes only, a build replays the last walk's listings: a new
    # page in a folder it listed, and the page deleted, must still be seen
    with open(os.path.join(docs, 'json.md'), 'a') as f:
        f.write('\nA write before a new page.\n')
    if not served('/json.html', 'A write before a new page.'):
        fail('a plain write is not served')
        return
    time.sleep(0.3)
    extra = os.path.join(docs, 'listed.md')
    with open(extra, 'w') as f:
        f.write('# Listed\n\nnew listed words\n')
    if not served('/listed.html', 'new listed words'):
        fail('a new page after plain writes is not built')
        return
    os.unlink(extra)
    if not served('/listed.html', ''):
        fail('a deleted page after plain writes is still served')
        return
    ok('a page made, then deleted, after plain writes is seen each time')
    sub = os.path.join(docs, 'gonedir')
    os.makedirs(sub)
    with open(os.path.join(sub, 'gone.md'), 'w') as f:
        f.write('# Gone\n\nsoon gone words\n')
    n = srv.builds()
    deadline = time.time() + 20
    while time.time() < deadline:
        st, _, body = srv.get('/gonedir/gone.html')
        if st == 200 and b'soon gone words' in body:
            break
        time.sleep(0.05)
    else:
        fail('a new page in a new folder is not served')
        return
    n = srv.builds()
    shutil.rmtree(sub)
    if not srv.wait_builds(n + 1) or not settle(srv, n + 1):
        fail('no rebuild and search index after a folder was removed')
        return
    clean = clean_build(quire, docs, env, work, 'site')
    if not clean:
        return
    want, got = tree_files(clean), tree_files(site)
    shutil.rmtree(clean)
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    differ = sorted(k for k in want if k in got and want[k] != got[k])
    empty = [os.path.relpath(d, site) for d, dirs, names in os.walk(site)
             if not dirs and not names]
    if missing or extra or differ or empty:
        fail('the served folder is not a clean build: missing %s, extra %s,'
             ' different %s, empty folders %s' %
             (missing[:5], extra[:5], differ[:5], empty[:5]))
    else:
        ok('the served folder equals a clean build (%d files), a removed '
           'page and its folder gone' % len(want))


def saves_during_builds(srv, docs, what):
    """A save that lands while a build runs (or just after its
    announcement) starts the next build: none is lost. The second save
    of each pair comes at a different moment of the first one's build."""
    page = os.path.join(docs, 'json.md')
    lost = []
    for i, gap in enumerate([0.055, 0.07, 0.09, 0.12, 0.16, 0.22, 0.3,
                             0.45, 0.65]):
        with open(page, 'a') as f:
            f.write('\nFirst save %d.\n' % i)
        time.sleep(gap)
        mark = ('Second save %d.' % i).encode()
        with open(page, 'a') as f:
            f.write('\n' + mark.decode() + '\n')
        deadline = time.time() + 10
        while time.time() < deadline:
            st, _, body = srv.get('/json.html')
            if mark in body:
                break
            time.sleep(0.05)
        else:
            lost.append(gap)
    if lost:
        fail('%s: a save %s s after another was never built' % (what, lost))
    else:
        ok('%s: a save during a build starts the next one (9 moments)'
           % what)


def new_warnings(srv, docs):
    """A save prints the warnings it caused, once; the count is the
    whole site's, build after build."""
    page = os.path.join(docs, 'json.md')
    other = os.path.join(docs, 'index.md')
    warn = '[-Wbroken-link]'

    def build_lines(n0):
        if not srv.wait_builds(n0 + 1):
            return None, None
        with srv.cond:
            lines = list(srv.lines)
        starts = [i for i, l in enumerate(lines)
                  if re.match(r'quire serve: build \d+', l)]
        prev = starts[n0 - 1] if n0 >= 1 else -1
        summary = lines[starts[n0]]
        m = re.search(r'; (\d+) warnings', summary)
        return lines[prev + 1:starts[n0]], int(m.group(1)) if m else None

    header = os.path.join(os.path.dirname(docs), 'lib', 'util', 'util.h')
    with open(header) as f:
        text = f.read()
    n0 = srv.builds()
    with open(page, 'a') as f:
        f.write('\nA [link](no-such-page-while-serving.md).\n')
    # and a warning of a source, whose unit the next build takes from
    # memory
    with open(header, 'w') as f:
        head, _, tail = text.rpartition('#endif')
        f.write(head + '/**\n * qu_served_fn() - a new function\n */\n'
                'void qu_served_fn(int undescribed);\n\n#endif' + tail)
    got, count = build_lines(n0)
    if got is None:
        fail('the edit gave no rebuild')
        return
    mine = [l for l in got if 'no-such-page-while-serving' in l and warn in l]
    mine += [l for l in got if "'undescribed' not described" in l]
    if len(mine) != 2 or count is None or count < 2:
        fail('the new warning was not printed once with its count: %s %s'
             % (got, count))
        return
    n1 = srv.builds()
    with open(other, 'a') as f:
        f.write('\nAnother sentence.\n')
    got2, count2 = build_lines(n1)
    if got2 is None:
        fail('the second edit gave no rebuild')
    elif any('no-such-page-while-serving' in l or 'undescribed' in l
             for l in got2):
        fail('a warning the build before printed is printed again')
    elif any('quire serve: Failed' in l for l in got + got2):
        fail('a tab that closed its event stream is logged as an error: %s'
             % [l for l in got + got2 if 'quire serve: Failed' in l][:2])
    elif count2 != count:
        fail('the warnings counted %s, then %s, with no new one'
             % (count, count2))
    else:
        ok('a save prints only the warnings it caused; the count stays '
           'the site\'s (%d)' % count)


def main():
    quire, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        proj = os.path.join(work, 'proj')
        shutil.copytree(os.path.join(root, 'docs'),
                        os.path.join(proj, 'docs'))
        shutil.copytree(os.path.join(root, 'lib'), os.path.join(proj, 'lib'),
                        ignore=lambda d, names: [
                            n for n in names
                            if os.path.isfile(os.path.join(d, n))
                            and not n.endswith('.h')])
        docs = os.path.join(proj, 'docs')
        tmp = os.path.join(work, 'tmp')
        os.makedirs(tmp)
        env = dict(os.environ,
                   QUIRE_THEMES=os.path.join(root, 'themes'),
                   QUIRE_NO_PROGRESS='1', TMPDIR=tmp)
        srv = Server(quire, docs, env)
        private = [n for n in os.listdir(tmp) if n.startswith('quire-serve')]
        if len(private) != 1:
            fail('expected one private folder in TMPDIR: %s' % private)
        # a symlink in the served folder that leads out
        site = os.path.join(tmp, private[0], 'site')
        try:
            os.symlink(work, os.path.join(site, 'out'))
            os.symlink('loop', os.path.join(site, 'loop'))
        except OSError as e:
            fail('cannot plant the symlinks: %s' % e)
        try:
            types_and_headers(srv, docs, quire, env, work)
            traversal(srv, work)
            # the symlinks planted for it are no files of the site
            os.unlink(os.path.join(site, 'out'))
            os.unlink(os.path.join(site, 'loop'))
            concurrent(srv)
            edits(srv, docs, env)
            new_warnings(srv, docs)
            saves_during_builds(srv, docs, 'inotify')
            search_follows(srv, quire, docs, env, work)
            watches_follow_inputs(srv, docs, proj)
            site_is_clean_build(srv, quire, docs, env, work, site)
        finally:
            srv.p.send_signal(signal.SIGTERM)
            try:
                rc = srv.p.wait(20)
            except subprocess.TimeoutExpired:
                srv.p.kill()
                rc = None
                fail('SIGTERM did not stop quire serve')
        if rc != 0:
            fail('quire serve exited %s after SIGTERM' % rc)
        left = os.listdir(tmp)
        if left:
            fail('quire serve left %s behind' % left)
        if rc == 0 and not left:
            ok('SIGTERM: exit 0, nothing left behind')
        # the polling watcher sees an edit too
        srv = Server(quire, docs, env, '--poll')
        if 'watching with poll' not in ''.join(srv.lines):
            fail('--poll does not poll: %s' % ''.join(srv.lines))
        n = srv.builds()
        time.sleep(0.3)
        with open(os.path.join(docs, 'json.md'), 'a') as f:
            f.write('\nPolled.\n')
        if not srv.wait_builds(n + 1, 10):
            fail('the polling watcher missed an edit')
        else:
            st, _, body = srv.get('/json.html')
            if b'Polled.' not in body:
                fail('the polled edit is not served')
            else:
                ok('the polling watcher rebuilds on an edit')
        srv.p.send_signal(signal.SIGINT)
        if srv.p.wait(20) != 0:
            fail('SIGINT: quire serve exited %s' % srv.p.returncode)
    if FAILS:
        print('%d failed' % len(FAILS))
        return 1
    print('all serve checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
