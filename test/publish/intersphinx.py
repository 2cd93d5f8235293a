#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""intersphinx.py - a Sphinx project links into a quire site

    intersphinx.py QUIRE

Builds a small quire site (a header with a struct and its members, an
enum, a typedef, a function-like macro and a function; a guide page with
sections), then a Sphinx project whose intersphinx_mapping points at the
site's objects.inv by the (url, path) form, so nothing is fetched. Its
page uses :c:func:, :c:struct:, :c:type:, :c:macro:, :c:member:,
:c:enum:, :c:enumerator:, :doc: and :ref: into the site. Checks that
sphinx-build -n warns about nothing, that every reference became a link
(no unresolved literal left), and that each link's href is a file of the
quire site holding that id. Skips (77) without Debian's sphinx-build.
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

QUIRE = os.path.abspath(sys.argv[1])
BASE = "https://ring.example.org/docs/"
SPHINX = shutil.which("sphinx-build", path="/usr/bin:" + os.environ.get("PATH", ""))

HEADER = """\
/* SPDX-License-Identifier: MIT */
/**
 * struct ring - a single-producer, single-consumer ring
 * @head: where the producer writes next
 * @tail: where the consumer reads next
 * @size: slots, a power of two
 */
struct ring {
\tunsigned head;
\tunsigned tail;
\tunsigned size;
};

/**
 * enum ring_mode - how a full ring behaves
 * @RING_BLOCK: the producer waits
 * @RING_DROP: the newest element is dropped
 */
enum ring_mode {
\tRING_BLOCK,
\tRING_DROP,
};

/**
 * typedef ring_cb_t - called for each element
 * @elem: the element
 */
typedef void (*ring_cb_t)(void *elem);

/**
 * RING_SIZE() - the slots of a ring of order @order
 * @order: log2 of the size
 */
#define RING_SIZE(order) (1u << (order))

/**
 * ring_init() - set a ring up
 * @r: the ring
 * @size: its size
 *
 * Return: 0 or -EINVAL.
 */
int ring_init(struct ring *r, unsigned size);
"""

RST = """\
Using ringlib from elsewhere
============================

A ring is set up with :c:func:`ring_init`, sized with :c:macro:`RING_SIZE`,
and is a :c:struct:`ring` whose :c:member:`ring.head` and
:c:member:`ring.tail` move; each element goes to a :c:type:`ring_cb_t`.
A full ring behaves as its :c:enum:`ring_mode` says, for instance
:c:enumerator:`RING_DROP`.

The :doc:`guide <ring:guide/usage>` has more, in particular
:ref:`ring:guide/usage:setting-a-ring-up`; the reference is
:doc:`ring:ring`.
"""

# the links the page must hold: (text, site path, id)
WANT = [
    ("ring_init", "ring.html", "c.ring_init"),
    ("RING_SIZE", "ring.html", "c.RING_SIZE"),
    ("ring", "ring.html", "c.ring"),
    ("ring.head", "ring.html", "c.ring.head"),
    ("ring.tail", "ring.html", "c.ring.tail"),
    ("ring_cb_t", "ring.html", "c.ring_cb_t"),
    ("ring_mode", "ring.html", "c.ring_mode"),
    ("RING_DROP", "ring.html", "c.ring_mode.RING_DROP"),
    ("guide", "guide/usage.html", None),
    ("Setting a ring up", "guide/usage.html", "setting-a-ring-up"),
    ("Ring buffers", "ring.html", None),
]


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self._a = [], set(), None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self._a = [a["href"], ""]

    def handle_data(self, data):
        if self._a is not None:
            self._a[1] += data

    def handle_endtag(self, tag):
        if tag == "a" and self._a is not None:
            self.links.append((self._a[0], self._a[1].strip().rstrip("()")))
            self._a = None


def parse(path):
    p = Links()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p


def main():
    if not SPHINX:
        print("SKIP: sphinx-build not found (Debian's python3-sphinx)")
        return 77
    fails = []
    with tempfile.TemporaryDirectory() as d:
        q = os.path.join(d, "ringlib")
        os.makedirs(os.path.join(q, "include/ring"))
        os.makedirs(os.path.join(q, "docs/guide"))
        files = {
            "include/ring/ring.h": HEADER,
            "docs/quire.yml": "title: ringlib\nsrctree: ..\n",
            "docs/index.md": "# ringlib\n\nStart with ring_init().\n\n"
                             "```{toctree}\nring.md\nguide/usage.md\n```\n",
            "docs/ring.md": "# Ring buffers\n\n```{kernel-doc} include/ring/ring.h\n```\n",
            "docs/guide/usage.md": "# Using rings\n\n## Setting a ring up\n\n"
                                   "Call ring_init().\n",
        }
        for path, text in files.items():
            with open(os.path.join(q, path), "w") as f:
                f.write(text)
        site = os.path.join(d, "site")
        r = subprocess.run([QUIRE, "build", os.path.join(q, "docs"), "-o", site,
                            "--quiet"], capture_output=True, text=True)
        if r.returncode != 0:
            print("quire build failed:", r.stdout, r.stderr)
            return 1
        inv = os.path.join(site, "objects.inv")
        sp = os.path.join(d, "sphinx")
        os.makedirs(sp)
        with open(os.path.join(sp, "conf.py"), "w") as f:
            f.write("project = 'user'\n"
                    "extensions = ['sphinx.ext.intersphinx']\n"
                    "primary_domain = 'c'\n"
                    "intersphinx_mapping = {'ring': (%r, %r)}\n"
                    "intersphinx_timeout = 1\n" % (BASE, inv))
        with open(os.path.join(sp, "index.rst"), "w") as f:
            f.write(RST)
        out = os.path.join(d, "html")
        warn = os.path.join(d, "warnings.txt")
        r = subprocess.run([SPHINX, "-q", "-n", "-b", "html", "-w", warn, sp, out],
                           capture_output=True, text=True,
                           env=dict(os.environ, http_proxy="http://127.0.0.1:9",
                                    https_proxy="http://127.0.0.1:9"))
        warnings = open(warn).read().strip()
        if r.returncode != 0:
            fails.append("sphinx-build exit %d: %s" % (r.returncode, r.stderr))
        if warnings:
            fails.append("sphinx-build -n warned:\n" + warnings)
        page = parse(os.path.join(out, "index.html"))
        ext = [(h, t) for h, t in page.links if h.startswith(BASE)]
        got = []
        for href, text in ext:
            rel = urllib.parse.urlsplit(href[len(BASE):])
            target = os.path.join(site, rel.path)
            if not os.path.isfile(target):
                fails.append("%s: no file %s in the quire site" % (href, rel.path))
                continue
            if rel.fragment and rel.fragment not in parse(target).ids:
                fails.append("%s: no id %s in %s" % (href, rel.fragment, rel.path))
            got.append((text, rel.path, rel.fragment or None))
        for w in WANT:
            if w not in got:
                fails.append("missing link %s -> %s#%s" % w)
        if len(got) != len(WANT):
            fails.append("%d links, not %d: %s" % (len(got), len(WANT), got))
        print("%d links into the quire site, %d expected" % (len(got), len(WANT)))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
