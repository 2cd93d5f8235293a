#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""linkout.py - references into another site through its objects.inv

    linkout.py QUIRE

Builds a small quire site (ringlib), then a second site whose quire.yml
names the first under intersphinx: with a base URL and a local copy of
its objects.inv. Checks, in the second site's HTML as parsed, that
automatic references (ring_init(), struct ring), explicit ones
([`RING_SIZE()`], [text][struct ring.head]) and a comment's highlights
(&struct ring, %RING_DROP) link to the first site's pages and anchors;
that a symbol of the site itself still wins; that a name in neither
still warns as a broken link; that :ref: and :doc: of a reST page link
to the labels and pages of a site Sphinx built (labels with blanks, as
autosectionlabel names sections; "site:label" naming one site); and
that a missing or corrupt inventory is reported and the build goes on.
"""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

from pubtest import check, write
import pubtest

QUIRE = os.path.abspath(sys.argv[1])
BASE = "https://ring.example.org/docs/"
ENV = dict(os.environ, GIT_CEILING_DIRECTORIES=tempfile.gettempdir())


class Links(html.parser.HTMLParser):
    """Every <a> as (href, class, text)."""

    def __init__(self, path):
        super().__init__()
        self.links = []
        self.cur = None
        with open(path) as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            a = dict(attrs)
            self.cur = [a.get("href"), a.get("class") or "", ""]

    def handle_endtag(self, tag):
        if tag == "a" and self.cur:
            self.links.append(tuple(self.cur))
            self.cur = None

    def handle_data(self, data):
        if self.cur:
            self.cur[2] += data

    def href(self, text):
        return [h for h, c, t in self.links if t == text]

    def check_links(self, want):
        """Each text of @want links (among others) to its URL."""
        for text, url in want.items():
            check(url in self.href(text),
                  "%s: %r, not %s" % (text, self.href(text), url))


RING = """/**
 * struct ring - a ring
 * @head: where the producer writes
 */
struct ring {
\tunsigned head;
};

/**
 * enum ring_mode - what a full ring does
 * @RING_DROP: drop the newest
 */
enum ring_mode {
\tRING_DROP,
};

/**
 * RING_SIZE() - slots of a ring
 * @order: log2 of the size
 */
#define RING_SIZE(order) (1u << (order))

/**
 * ring_init() - set a ring up
 * @r: the ring
 */
int ring_init(struct ring *r);

/**
 * ring_free() - free a ring (the first site's)
 * @r: the ring
 */
void ring_free(struct ring *r);
"""

APP = """/**
 * app_start() - start the app on a &struct ring
 * @mode: %RING_DROP or another
 */
void app_start(int mode);

/**
 * ring_free() - the app's own ring_free
 * @r: a ring
 */
void ring_free(struct ring *r);
"""

PAGE = """# App

Call ring_init() on a struct ring; size it with [`RING_SIZE()`], and
mind [the head][struct ring.head]. ring_free() is ours. See also
[`nothere()`].

```{kernel-doc} app.h
```
"""


def build(src, out):
    r = subprocess.run([QUIRE, "build", "--no-cache", "--quiet", "-o", out,
                        src], env=ENV, capture_output=True, text=True)
    return r.returncode, r.stderr


SPHINX_CONF = """project = 'Guide'
extensions = ['sphinx.ext.autosectionlabel']
autosectionlabel_prefix_document = True
"""

GUIDE = """=====
Guide
=====

.. _setting-up:

Setting up the ring
===================

Words.
"""

MD_PAGE = """# Markdown notes

The [guide page][guide:guide], [its section][guide:Setting up the ring]
and [the label][guide:setting-up]; [nothing][guide:no-such-page] names
nothing.
"""

RST_PAGE = """=====
Notes
=====

See :ref:`setting-up`, :ref:`the guide's section <guide:Setting up the
ring>`, :ref:`guide:setting-up` (one site named), :doc:`guide` and
:doc:`its page <guide>`; :ref:`no-such-label` names nothing.
"""


def sphinx_site(tmp, app, out):
    """:ref: and :doc: into a site Sphinx built (labels with blanks, as
    autosectionlabel names sections), by intersphinx: name or not."""
    sphinx = ["/usr/bin/python3", "-m", "sphinx"]
    if subprocess.run(sphinx + ["--version"], capture_output=True).returncode:
        print("skip: Sphinx labels (apt install python3-sphinx)")
        return
    src = os.path.join(tmp, "guide")
    write(src, "conf.py", SPHINX_CONF)
    write(src, "index.rst", ".. toctree::\n\n   guide\n")
    write(src, "guide.rst", GUIDE)
    r = subprocess.run(sphinx + ["-q", "-b", "html", src,
                                 os.path.join(tmp, "guide-html")],
                       capture_output=True, text=True)
    check(r.returncode == 0, "sphinx-build: " + r.stderr)
    shutil.copy(os.path.join(tmp, "guide-html", "objects.inv"),
                os.path.join(app, "inv", "guide.inv"))
    gbase = "https://guide.example.org/"
    write(app, "quire.yml", "title: App\nsrctree: .\nintersphinx:\n"
          "  ring:\n    url: %s\n    inventory: inv/ring.inv\n"
          "  guide:\n    url: %s\n    inventory: inv/guide.inv\n"
          % (BASE, gbase))
    write(app, "notes.rst", RST_PAGE)
    write(app, "mdnotes.md", MD_PAGE)
    code, err = build(app, out)
    check(code == 0, "app site with reST: exit %d: %s" % (code, err))
    check("'no-such-label'" in err, "no-such-label did not warn: " + err)
    page = Links(os.path.join(out, "notes.html"))
    want = {
        "Setting up the ring": gbase + "guide.html#setting-up",
        "the guide's section": gbase + "guide.html#setting-up-the-ring",
        "Guide": gbase + "guide.html",
        "its page": gbase + "guide.html",
    }
    page.check_links(want)
    check(len(page.href("Setting up the ring")) == 2,
          "guide:setting-up (one site named) did not link: %r" % page.links)
    ext = [c for h, c, t in page.links if h and h.startswith(gbase)]
    check(len(ext) == 5 and all("qu-extern" in c for c in ext),
          "links into the Sphinx site: %r" % page.links)
    # Markdown: [text][site:page] and [text][site:label]
    check("'guide:no-such-page'" in err,
          "guide:no-such-page did not warn: " + err)
    md = Links(os.path.join(out, "mdnotes.html"))
    md.check_links({
        "guide page": gbase + "guide.html",
        "its section": gbase + "guide.html#setting-up-the-ring",
        "the label": gbase + "guide.html#setting-up",
    })
    check(not md.href("nothing"), "guide:no-such-page linked: %r" % md.links)
    os.remove(os.path.join(app, "notes.rst"))
    os.remove(os.path.join(app, "mdnotes.md"))
    write(app, "quire.yml", "title: App\nsrctree: .\nintersphinx:\n"
          "  ring:\n    url: %s\n    inventory: inv/ring.inv\n" % BASE)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ring = os.path.join(tmp, "ring")
        write(ring, "quire.yml", "title: Ring\nsrctree: .\n")
        write(ring, "index.md", "# Ring\n\n```{kernel-doc} ring.h\n```\n")
        write(ring, "ring.h", RING)
        code, err = build(ring, os.path.join(tmp, "ring-site"))
        check(code == 0, "ring site: " + err)
        app = os.path.join(tmp, "app")
        write(app, "quire.yml", "title: App\nsrctree: .\nintersphinx:\n"
              "  ring:\n    url: %s\n    inventory: inv/ring.inv\n" % BASE)
        write(app, "index.md", PAGE)
        write(app, "app.h", APP)
        os.makedirs(os.path.join(app, "inv"))
        shutil.copy(os.path.join(tmp, "ring-site", "objects.inv"),
                    os.path.join(app, "inv", "ring.inv"))
        out = os.path.join(tmp, "app-site")
        code, err = build(app, out)
        check(code == 0, "app site: exit %d: %s" % (code, err))
        check("'nothere()'" in err and "-Wbroken-link" in err,
              "nothere() did not warn: " + err)
        check(err.count("\n") == 1, "more than one warning: " + err)
        page = Links(os.path.join(out, "index.html"))
        want = {
            "ring_init()": BASE + "index.html#c.ring_init",
            "struct ring": BASE + "index.html#c.ring",
            "RING_SIZE()": BASE + "index.html#c.RING_SIZE",
            "the head": BASE + "index.html#c.ring.head",
            "RING_DROP": BASE + "index.html#c.ring_mode.RING_DROP",
        }
        page.check_links(want)
        ext = [c for h, c, t in page.links if h and h.startswith(BASE)]
        check(ext and all("qu-extern" in c for c in ext),
              "external links lack class qu-extern: %r" % ext)
        check(page.href("ring_free()") == ["#c.ring_free"],
              "the site's own ring_free() must win: %r" %
              page.href("ring_free()"))
        check(not page.href("nothere()"), "nothere() became a link")

        sphinx_site(tmp, app, out)

        # a missing inventory and a corrupt one: reported, built anyway
        os.remove(os.path.join(app, "inv", "ring.inv"))
        code, err = build(app, out)
        check(code == 0 and "no inventory 'inv/ring.inv'" in err,
              "missing inventory: %d %s" % (code, err))
        check(not Links(os.path.join(out, "index.html")).href("struct ring"),
              "a link without an inventory")
        write(app, "inv/ring.inv", "# Sphinx inventory version 2\n# P\n"
              "# V\n# zlib\nnot zlib at all\n")
        code, err = build(app, out)
        check("not a Sphinx inventory" in err and
              os.path.exists(os.path.join(out, "index.html")),
              "corrupt inventory: %d %s" % (code, err))
        # confined like any input: outside the docs root and srctree
        write(app, "quire.yml", "title: App\nsrctree: .\nintersphinx:\n"
              "  ring:\n    url: %s\n    inventory: ../ring-site/objects.inv\n"
              % BASE)
        code, err = build(app, out)
        check("outside the docs root" in err,
              "an inventory outside the tree was read: " + err)
    return pubtest.result()


sys.exit(main())
