#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark: quire serve's save-to-reload time, and its static serving.

1. Save to reload: with `quire serve` running, a page (quire's docs) or
   a comment (include/linux/list.h of the zero-config kernel site) is
   edited, and the time until the event stream announces the finished
   build that names the page is measured; medians of RUNS edits. This
   is the moment a tab reloads. The search index, rebuilt after the
   event, is waited for before the next edit (a writer's next save
   comes seconds later), and its median time is printed too.
2. Serving: wrk (Debian's) against quire serve and against Python's
   http.server on the same built site, for a page and a stylesheet;
   requests per second and the ratio. (quire serve adds the reload
   script to every page it sends.)

Not part of the test suite: timing stays out of the tests.

usage: test/bench/serve.py QUIRE SOURCE_ROOT [KERNEL_TREE] [RUNS]
"""
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


class Serve:
    def __init__(self, quire, docs, env):
        self.p = subprocess.Popen([quire, 'serve', docs, '--port', '0'],
                                  stderr=subprocess.PIPE, text=True, env=env)
        self.port = None
        for line in self.p.stderr:
            m = re.search(r'http://127\.0\.0\.1:(\d+)/', line)
            if m:
                self.port = int(m.group(1))
                break
        self.lines = []
        threading.Thread(target=self._log, daemon=True).start()
        self.events = []
        self.cond = threading.Condition()
        s = socket.create_connection(('127.0.0.1', self.port))
        s.sendall(b'GET /_quire/events HTTP/1.1\r\nHost: x\r\n\r\n')
        self.sock = s
        threading.Thread(target=self._read, daemon=True).start()

    def _log(self):
        for line in self.p.stderr:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()

    def _read(self):
        buf = b''
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b'\n\n' in buf or b'\r\n\r\n' in buf:
                i = buf.find(b'\n\n')
                block, buf = buf[:i], buf[i + 2:]
                m = re.search(rb'data: (\{.*\})', block)
                if m:
                    with self.cond:
                        self.events.append((time.monotonic(),
                                            json.loads(m.group(1))))
                        self.cond.notify_all()

    def edit_latency(self, path, old, new, page):
        with self.cond:
            n = len(self.events)
        with open(path) as f:
            s = f.read()
        t0 = time.monotonic()
        with open(path, 'w') as f:
            f.write(s.replace(old, new, 1))
        with self.cond:
            self.cond.wait_for(lambda: any(
                page in e[1].get('changed', []) for e in self.events[n:]),
                timeout=120)
            hit = [e for e in self.events[n:]
                   if page in e[1].get('changed', [])]
        return (hit[0][0] - t0) if hit else float('nan')

    def stop(self):
        self.sock.close()
        self.p.send_signal(signal.SIGTERM)
        self.p.wait(30)


def latency(quire, docs, env, path, page, runs, label):
    srv = Serve(quire, docs, env)
    time.sleep(0.5)
    times, index = [], []
    for i in range(runs):
        with srv.cond:
            n = len(srv.lines)
        times.append(srv.edit_latency(path, 'MARK%d' % (i - 1) if i else
                                      MARKER, 'MARK%d' % i, page))
        # the search index follows the event: wait for it
        with srv.cond:
            srv.cond.wait_for(lambda: any('search index' in l
                                          for l in srv.lines[n:]),
                              timeout=30)
            hit = [l for l in srv.lines[n:] if 'search index' in l]
        m = re.search(r'search index, (\d+) ms', hit[0]) if hit else None
        if m:
            index.append(int(m.group(1)) / 1000)
        time.sleep(0.4)
    srv.stop()
    print('%-40s median %6.1f ms  (min %.1f, max %.1f; %d edits)%s' %
          (label, 1000 * statistics.median(times), 1000 * min(times),
           1000 * max(times), runs,
           '; then the search index, median %.0f ms' %
           (1000 * statistics.median(index)) if index else ''))


MARKER = 'MARKER-FOR-BENCH'


def wrk(url):
    r = subprocess.run(['wrk', '-t2', '-c50', '-d5s', url],
                       capture_output=True, text=True)
    m = re.search(r'Requests/sec:\s+([\d.]+)', r.stdout)
    return float(m.group(1)) if m else float('nan')


def serving(quire, docs, env, work):
    if not shutil.which('wrk'):
        print('serving: skipped (apt-get install wrk)')
        return
    site = os.path.join(work, 'site')
    subprocess.run([quire, 'build', docs, '-o', site, '-q'], env=env,
                   check=True)
    srv = Serve(quire, docs, env)
    py = subprocess.Popen([sys.executable, '-m', 'http.server', '0',
                           '--bind', '127.0.0.1', '--directory', site],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
    line = py.stdout.readline()
    pport = int(re.search(r'port (\d+)', line).group(1))
    time.sleep(0.3)
    for name in ('index.html', '_static/quire.css'):
        q = wrk('http://127.0.0.1:%d/%s' % (srv.port, name))
        p = wrk('http://127.0.0.1:%d/%s' % (pport, name))
        print('%-40s quire %8.0f req/s, http.server %7.0f req/s: %.1fx' %
              ('GET /' + name, q, p, q / p))
    py.terminate()
    py.wait()
    srv.stop()


def main():
    quire, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    tree = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, QUIRE_THEMES=os.path.join(root, 'themes'),
                   QUIRE_NO_PROGRESS='1', TMPDIR=work)
        proj = os.path.join(work, 'proj')
        shutil.copytree(os.path.join(root, 'docs'),
                        os.path.join(proj, 'docs'))
        shutil.copytree(os.path.join(root, 'lib'), os.path.join(proj, 'lib'),
                        ignore=lambda d, names: [
                            n for n in names
                            if os.path.isfile(os.path.join(d, n))
                            and not n.endswith('.h')])
        docs = os.path.join(proj, 'docs')
        with open(os.path.join(docs, 'json.md'), 'a') as f:
            f.write('\n' + MARKER + '\n')
        latency(quire, docs, env, os.path.join(docs, 'json.md'),
                'json.html', runs, "quire's docs, a page edited")
        util_h = os.path.join(proj, 'lib', 'util', 'util.h')
        with open(util_h) as f:
            s = f.read()
        with open(util_h, 'w') as f:
            f.write(s.replace('malloc() that never returns NULL',
                              'malloc() that never returns NULL ' + MARKER,
                              1))
        latency(quire, docs, env, util_h, 'api/util.html', runs,
                "quire's docs, a header's comment edited")
        if tree:
            ktree = os.path.join(work, 'linux')
            shutil.copytree(tree, ktree, symlinks=True)
            lh = os.path.join(ktree, 'include', 'linux', 'list.h')
            with open(lh) as f:
                s = f.read()
            with open(lh, 'w') as f:
                f.write(s.replace(' * list_add - add a new entry',
                                  ' * list_add - add a new entry ' + MARKER,
                                  1))
            latency(quire, ktree, env, lh, 'include/linux/list.h.html',
                    max(3, runs // 2),
                    'kernel zero-config, list.h comment edited')
        serving(quire, docs, env, work)


if __name__ == '__main__':
    main()
