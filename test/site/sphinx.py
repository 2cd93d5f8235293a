#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A Sphinx project built by quire, the kernel's way.

Writes a small tree like the kernel's (Documentation/conf.py, a folder of
.rst pages with a toctree and kernel-doc directives, a C file beside
Documentation/), builds the whole Documentation/ and one folder of it (as
"make htmldocs SPHINXDIRS=core" does), and checks in the parsed HTML that
every page is there, that the ids Sphinx would write (section ids,
labels, c.NAME) are there, that every internal link lands on a page
and an id that exist, and that the page's "On this page" list names the
sections and items by their words alone (not the "¶" of their links).

usage: sphinx.py QUIRE
"""
import html.parser
import os
import subprocess
import sys
import tempfile

FILES = {
    "Documentation/conf.py": "project = 'Tiny Kernel'\nrelease = '0.1'\n",
    "Documentation/index.rst": """\
=======
Welcome
=======

.. toctree::
   :maxdepth: 1

   core/index
""",
    "Documentation/core/index.rst": """\
.. _core-top:

Core API
========

See :ref:`tiny-funcs` and :doc:`api`; tiny_get() is documented there.

.. toctree::

   api
""",
    "Documentation/core/api.rst": """\
Tiny API
========

.. kernel-doc:: lib/tiny.c
   :doc: Tiny

.. _tiny-funcs:

Functions
---------

.. kernel-doc:: lib/tiny.c
   :export:

Types
-----

.. kernel-doc:: lib/tiny.c
   :identifiers: tiny_box

Use :c:func:`tiny_get` on a :c:type:`struct tiny_box <tiny_box>`, back to
:ref:`core-top`.
""",
    "lib/tiny.c": """\
/**
 * DOC: Tiny
 *
 * A tiny library.
 */

/**
 * struct tiny_box - a box
 * @v: its value
 */
struct tiny_box { int v; };

/**
 * tiny_get() - read a box
 * @b: the box
 *
 * Return: its value.
 */
int tiny_get(struct tiny_box *b)
{
	return b->v;
}
EXPORT_SYMBOL(tiny_get);
""",
}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.hrefs = []
        self.toc = []       # the "On this page" entries' texts
        self.in_toc = 0     # depth inside <nav class="qu-toc">

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if self.in_toc:
            self.in_toc += 1
            if tag == "a":
                self.toc.append("")
        elif tag == "nav" and "qu-toc" in a.get("class", "").split():
            self.in_toc = 1

    def handle_endtag(self, tag):
        if self.in_toc:
            self.in_toc -= 1

    def handle_data(self, data):
        if self.in_toc and self.toc:
            self.toc[-1] += data


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def build(quire, root, src, out):
    r = subprocess.run([quire, "build", src, "-o", out, "--quiet"],
                       cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, QUIRE_NO_PROGRESS="1"))
    return r.returncode, r.stderr


def check(out, want, fails, label):
    pages = {}
    for rel, ids in want.items():
        path = os.path.join(out, rel)
        if not os.path.exists(path):
            fails.append("%s: no page %s" % (label, rel))
            continue
        pages[rel] = parse(path)
        for i in ids:
            if i not in pages[rel].ids:
                fails.append("%s: %s has no id '%s'" % (label, rel, i))
    nlinks = 0
    for rel, p in pages.items():
        for href in p.hrefs:
            if "://" in href or href.startswith(("mailto:", "_static")):
                continue
            target, _, frag = href.partition("#")
            tpath = os.path.normpath(os.path.join(os.path.dirname(rel),
                                                  target)) if target else rel
            if tpath.endswith(("genindex.html", "search.html")):
                continue
            if tpath not in pages:
                if not os.path.exists(os.path.join(out, tpath)):
                    fails.append("%s: %s links to missing %s" %
                                 (label, rel, href))
                continue
            if frag and frag not in pages[tpath].ids:
                fails.append("%s: %s links to %s: no such id" %
                             (label, rel, href))
            nlinks += 1
    return nlinks


def main():
    quire = os.path.abspath(sys.argv[1])
    fails = []
    with tempfile.TemporaryDirectory() as root:
        for rel, text in FILES.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)),
                        exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        api_ids = ["tiny-api", "functions", "types", "tiny-funcs",
                   "c.tiny_get", "c.tiny_box"]
        # the whole tree
        rc, err = build(quire, root, "Documentation", "out-all")
        if rc != 0 or err:
            fails.append("whole tree: exit %d, stderr %r" % (rc, err))
        n = check(os.path.join(root, "out-all"), {
            "index.html": ["welcome"],
            "core/index.html": ["core-api", "core-top"],
            "core/api.html": api_ids,
        }, fails, "whole tree")
        if n < 8:
            fails.append("whole tree: only %d internal links" % n)
        toc = parse(os.path.join(root, "out-all/core/api.html")).toc
        if toc != ["Tiny", "Functions", "tiny_get", "Types", "tiny_box"]:
            fails.append("whole tree: core/api.html's On this page: %r"
                         % toc)
        with open(os.path.join(root, "out-all/index.html")) as f:
            if "Tiny Kernel" not in f.read():
                fails.append("whole tree: conf.py's project is not the "
                             "site's title")
        # one folder of it, as SPHINXDIRS=core
        rc, err = build(quire, root, "Documentation/core", "out-core")
        if rc != 0 or err:
            fails.append("SPHINXDIRS=core: exit %d, stderr %r" % (rc, err))
        n = check(os.path.join(root, "out-core"), {
            "index.html": ["core-api", "core-top"],
            "api.html": api_ids,
        }, fails, "SPHINXDIRS=core")
        if n < 6:
            fails.append("SPHINXDIRS=core: only %d internal links" % n)
    for f in fails:
        print(f)
    print("%s: %d problems" % ("FAIL" if fails else "ok", len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
