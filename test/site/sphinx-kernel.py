#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel's own Documentation/doc-guide, built by quire and by Sphinx.

Unpacks Documentation/ and scripts/kernel-doc of linux-source-6.1 from
/usr/src/linux-source-6.1.tar.xz into WORKDIR (once), builds
Documentation/doc-guide with quire as a Sphinx project (conf.py one folder
up, as "make htmldocs SPHINXDIRS=doc-guide"), and, when sphinx-build is
installed, with Sphinx the way the kernel's Makefile runs it. Then, page
by page on the main content (Sphinx's role="main" block, quire's
article.qu-content):

  pages  Sphinx's pages quire also wrote, at the same path;
  ids    Sphinx's ids quire's page also has;
  links  Sphinx's internal links (page and fragment, as a multiset) that
         quire's page also has;
  text   the share of Sphinx's words quire's page also has (multisets).

Fails below the THRESHOLD_* figures (measured, see docs/rst.md), on a
crash, or when a page is missing. Without sphinx-build only quire's side
is checked (every .rst a page, no crash). Skips (77) without the tarball.

usage: sphinx-kernel.py QUIRE WORKDIR
"""
import html.parser
import os
import posixpath
import re
import shutil
import subprocess
import sys
from collections import Counter
from urllib.parse import unquote, urlsplit

TARBALL = '/usr/src/linux-source-6.1.tar.xz'
TOP = 'linux-source-6.1'
SUBDIR = 'doc-guide'
# Measured with Sphinx 5.3: pages 100%, ids 100%, links 100%, text 99.9%.
THRESHOLD_PAGES = 100.0
THRESHOLD_IDS = 99.0
THRESHOLD_LINKS = 99.0
THRESHOLD_TEXT = 98.0
WORD = re.compile(r'\w+', re.UNICODE)
SKIP = {'genindex.html', 'search.html', '404.html', 'py-modindex.html'}


class Main(html.parser.HTMLParser):
    """Ids, internal links and words inside a page's main content."""

    def __init__(self, quire):
        super().__init__(convert_charrefs=True)
        self.quire = quire
        self.depth = 0
        self.ids, self.all_ids = set(), set()
        self.links, self.words = Counter(), Counter()

    def is_main(self, tag, a):
        if self.quire:
            return tag == 'article' and 'qu-content' in a.get('class', '')
        return a.get('role') == 'main'

    def handle_starttag(self, tag, attrs):
        a = {k: v or '' for k, v in attrs}
        if 'id' in a:
            self.all_ids.add(a['id'])
        if self.depth == 0 and self.is_main(tag, a):
            self.depth = 1
            return
        if self.depth:
            if tag not in ('br', 'img', 'hr', 'meta', 'input', 'col'):
                self.depth += 1
            if 'id' in a:
                self.ids.add(a['id'])
            if tag == 'a' and a.get('href'):
                self.links[a['href']] += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.words.update(w.lower() for w in WORD.findall(data))


def read(path, quire):
    p = Main(quire)
    with open(path, encoding='utf-8', errors='replace') as f:
        p.feed(f.read())
    return p


def norm(page, href):
    u = urlsplit(href)
    if u.scheme or u.netloc or href.startswith('mailto:'):
        return None
    t = page if not u.path else posixpath.normpath(
        posixpath.join(posixpath.dirname(page), unquote(u.path)))
    if t.startswith(('_sources/', '_static/', '_images/')):
        return None
    return (t, unquote(u.fragment))


def pages(root):
    out = []
    for d, subs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        subs[:] = sorted(s for s in subs if not s.startswith(('_', '.')))
        for f in sorted(files):
            r = f if rel == '.' else posixpath.join(rel, f)
            if f.endswith('.html') and r not in SKIP:
                out.append(r)
    return out


def compare(ref, got):
    t = Counter()
    for page in pages(ref):
        t['pages'] += 1
        r = read(os.path.join(ref, page), False)
        q = os.path.join(got, page)
        t['ids'] += len(r.ids)
        if not os.path.exists(q):
            continue
        g = read(q, True)
        t['pages_ok'] += 1
        t['ids_ok'] += len(r.ids & g.all_ids)
        rl = Counter(k for h, n in r.links.items() for k in [norm(page, h)] * n
                     if k)
        gl = Counter(k for h, n in g.links.items() for k in [norm(page, h)] * n
                     if k)
        t['links'] += sum(rl.values())
        t['links_ok'] += sum((rl & gl).values())
        size = sum(r.words.values())
        t['text'] += (sum((r.words & g.words).values()) / size
                      if size else 1.0)
    pct = lambda a, b: 100.0 * a / b if b else 100.0  # noqa: E731
    return {'pages': pct(t['pages_ok'], t['pages']),
            'ids': pct(t['ids_ok'], t['ids']),
            'links': pct(t['links_ok'], t['links']),
            'text': 100.0 * t['text'] / t['pages_ok'] if t['pages_ok'] else 0}


def main():
    quire = os.path.abspath(sys.argv[1])
    work = os.path.abspath(sys.argv[2])
    if not os.path.exists(TARBALL):
        print('skip: no ' + TARBALL)
        return 77
    tree = os.path.join(work, TOP)
    stamp = os.path.join(work, '.unpacked-sphinx')
    if not os.path.exists(stamp):
        os.makedirs(work, exist_ok=True)
        subprocess.run(['tar', '-xJf', TARBALL, '-C', work, '--wildcards',
                        TOP + '/Documentation/*', TOP + '/scripts/kernel-doc'],
                       check=True)
        open(stamp, 'w').close()
    src = os.path.join(tree, 'Documentation', SUBDIR)
    out = os.path.join(work, 'quire-' + SUBDIR)
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([quire, 'build', src, '-o', out, '--quiet'],
                       capture_output=True, text=True,
                       env=dict(os.environ, QUIRE_NO_PROGRESS='1'))
    if r.returncode not in (0, 1) or r.returncode < 0:
        print('quire failed (%d): %s' % (r.returncode, r.stderr[-2000:]))
        return 1
    fails = []
    rst = [os.path.relpath(os.path.join(d, f), src)
           for d, _, fs in os.walk(src) for f in fs if f.endswith('.rst')]
    for f in sorted(rst):
        if not os.path.exists(os.path.join(out, f[:-4] + '.html')):
            fails.append('no page for ' + f)
    sphinx = shutil.which('sphinx-build')
    if sphinx:
        ref = os.path.join(work, 'sphinx-' + SUBDIR)
        if not os.path.exists(os.path.join(ref, 'index.html')):
            subprocess.run([sphinx, '-q', '-b', 'html', '-c',
                            os.path.join(tree, 'Documentation'),
                            '-d', os.path.join(work, 'doctrees-' + SUBDIR),
                            '-D', 'kerneldoc_srctree=' + tree,
                            '-D', 'kerneldoc_bin=' +
                            os.path.join(tree, 'scripts/kernel-doc'),
                            src, ref], cwd=tree, capture_output=True)
        if not os.path.exists(os.path.join(ref, 'index.html')):
            print('skip: sphinx-build could not build ' + SUBDIR)
            return 77
        fig = compare(ref, out)
        print('pages %.2f%%, ids %.2f%%, links %.2f%%, text %.2f%%' %
              (fig['pages'], fig['ids'], fig['links'], fig['text']))
        for k, th in (('pages', THRESHOLD_PAGES), ('ids', THRESHOLD_IDS),
                      ('links', THRESHOLD_LINKS), ('text', THRESHOLD_TEXT)):
            if fig[k] < th:
                fails.append('%s %.2f%% < %.1f%%' % (k, fig[k], th))
    else:
        print('sphinx-build not installed: quire side only')
    for f in fails:
        print(f)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
