#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rev.py - quire build --rev reads a revision straight from git

    rev.py QUIRE

Makes a repository at test time (a docs folder with quire.yml, pages in
a subfolder, a page that is a symbolic link, an image, a theme inside
the docs tree, a C file the pages pull in, a link leading out of the
tree), tags it v1.0, then changes every input and commits again (v1.1)
and leaves an uncommitted change in the work tree. Checks:

- `--rev v1.0` from a bare clone equals, byte for byte, a build of a
  checkout of v1.0 (the version shown is "v1.0" in both);
- the same --rev build twice (with its cache, and in another folder
  with -j1) gives the same bytes;
- `--rev v1.1` shows v1.1's text and the uncommitted change nowhere;
  the work tree is not touched (git status as before);
- what a revision cannot give is reported as on disk (a directive naming
  a path outside the tree, a missing file), and bad --rev, --repo and
  DIR are exit 2 with one line.
"""
import filecmp
import html.parser
import os
import subprocess
import sys
import tempfile

from pubtest import ENV, QUIRE, check, git, same_tree, write
import pubtest

ENV.pop("QUIRE_THEMES", None)


def quire(*args, cwd=None, code=0):
    r = subprocess.run([QUIRE, "build", "--quiet"] + list(args), cwd=cwd,
                       env=ENV, capture_output=True, text=True)
    check(r.returncode == code, "quire build %s: exit %d, not %d: %s" %
          (" ".join(args), r.returncode, code, r.stderr.strip()))
    return r.stderr


class Page(html.parser.HTMLParser):
    """The text of an element by class, and all the text."""

    def __init__(self, path):
        super().__init__()
        self.by_class = {}
        self.text = []
        self.stack = []
        with open(path) as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag not in ("meta", "link", "img", "br", "input", "hr"):
            self.stack.append(cls.split())

    def handle_endtag(self, tag):
        if self.stack and tag not in ("meta", "link", "img", "br", "input",
                                      "hr"):
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        for classes in self.stack:
            for c in classes:
                self.by_class.setdefault(c, []).append(data)

    def cls(self, c):
        return "".join(self.by_class.get(c, []))


SRC_V1 = """/**
 * ring_init() - set a ring up
 * @r: the ring
 *
 * Return: 0.
 */
int ring_init(struct ring *r)
{
\treturn 0;
}
"""

THEME = """<!DOCTYPE html>
<html><head><title data-slot="title">t</title></head>
<body><p class="custom-theme">custom</p>
<span class="qu-version" data-slot="version">v</span>
<nav data-slot="nav"></nav><main data-slot="content"></main>
<p class="qu-page-meta" data-slot="page-meta"></p></body></html>
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w")
        os.makedirs(w)
        git(w, "init", "-q", "-b", "main")
        git(w, "remote", "add", "origin", "git@github.com:o/ring.git")
        write(w, "docs/quire.yml", "title: Ring\nsrctree: ..\n"
              "theme: mytheme\nman: true\n")
        write(w, "docs/index.md", "# Ring docs\n\nSee ring_init(); "
              "![logo](img/logo.png)\n\n```{kernel-doc} src/ring.c\n```\n\n"
              "```{kernel-doc} ../../etc/passwd\n```\n\n"
              "```{kernel-doc} src/missing.c\n```\n")
        write(w, "docs/guide/usage.md", "# Usage\n\nVersion one text.\n")
        write(w, "docs/img/logo.png", "PNG-ish bytes\n")
        write(w, "docs/themes/mytheme/page.html", THEME)
        write(w, "docs/themes/mytheme/static/quire.css", "p { color: red }\n")
        write(w, "src/ring.c", SRC_V1)
        os.symlink("guide/usage.md", os.path.join(w, "docs/alias.md"))
        git(w, "add", "-A")
        git(w, "commit", "-qm", "one")
        git(w, "tag", "v1.0")
        tag_commit = subprocess.run(["git", "-C", w, "rev-parse", "HEAD"],
                                    capture_output=True,
                                    text=True).stdout.strip()
        write(w, "docs/guide/usage.md", "# Usage\n\nVersion two text.\n")
        write(w, "src/ring.c", SRC_V1.replace("set a ring up",
                                              "set a ring up, v2"))
        # a link out of the tree: on disk an error, in a revision no file
        os.symlink("/etc/hostname", os.path.join(w, "docs/out.md"))
        git(w, "add", "-A")
        git(w, "commit", "-qam", "two")
        git(w, "tag", "-a", "-m", "v1.1", "v1.1")
        # an uncommitted change no --rev build may show
        write(w, "docs/guide/usage.md", "# Usage\n\nUNCOMMITTED\n")
        status = subprocess.run(["git", "-C", w, "status", "--porcelain"],
                                capture_output=True, text=True).stdout
        bare = os.path.join(tmp, "bare.git")
        subprocess.run(["git", "clone", "-q", "--bare", w, bare], env=ENV,
                       check=True)
        git(bare, "remote", "set-url", "origin", "git@github.com:o/ring.git")
        co = os.path.join(tmp, "co")
        subprocess.run(["git", "clone", "-q", "-b", "v1.0", bare, co],
                       env=ENV, check=True, capture_output=True)
        git(co, "remote", "set-url", "origin", "git@github.com:o/ring.git")

        # a checkout of v1.0 against --rev v1.0 of the bare clone
        wt_out = os.path.join(tmp, "wt-site")
        err_wt = quire("docs", "-o", wt_out, "--no-cache", cwd=co)
        rev_out = os.path.join(tmp, "rev-site")
        err_rev = quire("--rev", "v1.0", "--repo", bare, "docs", "-o",
                        rev_out, "--no-cache", cwd=tmp)
        same_tree(wt_out, rev_out, "--rev v1.0 against a checkout")
        check(err_wt == err_rev, "diagnostics differ:\n%s\n---\n%s" %
              (err_wt, err_rev))
        check("no file '../../etc/passwd'" in err_rev,
              "../../etc/passwd was not refused: " + err_rev)
        check("src/missing.c" in err_rev, "no warning for a missing file")
        p = Page(os.path.join(rev_out, "index.html"))
        check(p.cls("qu-version") == "v1.0",
              "version %r, not v1.0" % p.cls("qu-version"))
        check(p.cls("custom-theme") == "custom",
              "the theme inside the docs tree was not used")
        check("set a ring up" in p.text and
              "v2" not in "".join(p.text), "v1.0's item text")
        # last changed and view source, the same from git as from disk
        check(p.cls("qu-commit")[:12] == tag_commit[:12],
              "last changed commit %r, not %r" % (p.cls("qu-commit"),
                                                  tag_commit))
        check("Last changed 2023-11-14" in p.cls("qu-page-meta"),
              "page meta: %r" % p.cls("qu-page-meta"))
        with open(os.path.join(rev_out, "man/man9/ring_init.9")) as f:
            check('"2023-11-14"' in f.read(), "the man page's date is "
                  "not the revision's commit time")
        check(os.path.exists(os.path.join(rev_out, "img/logo.png")),
              "the image was not copied")
        check(os.path.exists(os.path.join(rev_out, "alias.html")),
              "the linked page is missing")
        with open(os.path.join(rev_out, "_static/quire.css")) as f:
            check(f.read() == "p { color: red }\n", "the theme's css")

        # reproducible: again with a cache, and with -j1 elsewhere
        again = os.path.join(tmp, "rev-again")
        for _ in range(2):
            quire("--rev", "v1.0", "--repo", bare, "docs", "-o", again,
                  cwd=tmp)
            same_tree(rev_out, again, "--rev v1.0 with the cache")
        other = os.path.join(tmp, "x", "rev-j1")
        os.makedirs(os.path.dirname(other))
        quire("--rev", "v1.0", "--repo", bare, "docs", "-o", other, "-j1",
              "--no-cache", cwd=tmp)
        same_tree(rev_out, other, "--rev v1.0 with -j1")

        # v1.1 from the work tree's repository, run from inside it
        v11 = os.path.join(tmp, "v11")
        quire("--rev", "v1.1", "docs", "-o", v11, "--no-cache", cwd=w)
        p = Page(os.path.join(v11, "index.html"))
        check(p.cls("qu-version") == "v1.1",
              "version %r, not v1.1" % p.cls("qu-version"))
        check("set a ring up, v2" in "".join(p.text), "v1.1's item text")
        check(not os.path.exists(os.path.join(v11, "out.html")),
              "a link out of the tree became a page")
        with open(os.path.join(v11, "guide/usage.html")) as f:
            t = f.read()
            check("Version two text." in t and "UNCOMMITTED" not in t,
                  "v1.1's page text, without the work tree's change")
        check(subprocess.run(["git", "-C", w, "status", "--porcelain"],
                             capture_output=True, text=True).stdout ==
              status, "the work tree changed")
        # a commit id and HEAD~1 name the same tree as v1.0
        h = os.path.join(tmp, "head1")
        quire("--rev", "main~1", "--repo", bare, "docs", "-o", h,
              "--no-cache", cwd=tmp)
        check(filecmp.cmp(os.path.join(h, "guide/usage.html"),
                          os.path.join(rev_out, "guide/usage.html"),
                          shallow=False), "main~1 is v1.0's tree")

        # a zero-config site is named after its folder, or after the
        # repository at a revision's root ("." has no name)
        zw = os.path.join(tmp, "zw")
        quire(".", "-o", zw, "--no-cache", cwd=co)
        zr = os.path.join(tmp, "zr")
        quire("--rev", "v1.0", "--repo", bare, "-o", zr, "--no-cache",
              cwd=tmp)
        for site, name in ((zw, "co"), (zr, "bare")):
            with open(os.path.join(site, "index.html")) as f:
                t = f.read()
                check("<title>%s</title>" % name in t,
                      "%s: not named %s" % (site, name))

        # what cannot be built: exit 2 and one line
        e = quire("--rev", "nope", "--repo", bare, "-o",
                  os.path.join(tmp, "n1"), cwd=tmp, code=2)
        check("nope" in e and e.count("\n") == 1, "bad --rev: " + e)
        e = quire("--rev", "v1.0", "--repo", bare, "nodir", "-o",
                  os.path.join(tmp, "n2"), cwd=tmp, code=2)
        check("nodir: no such folder in v1.0" in e, "bad DIR: " + e)
        e = quire("--rev", "v1.0", "--repo", tmp, "-o",
                  os.path.join(tmp, "n3"), cwd=tmp, code=2)
        check("not in a git repository" in e, "not a repository: " + e)
        e = quire("--rev", "v1.0", "--repo", bare, "-o",
                  os.path.join(bare, "site"), cwd=tmp, code=2)
        check("in the repository" in e, "OUT in the repository: " + e)
        quire("--repo", bare, "-o", os.path.join(tmp, "n4"), cwd=tmp,
              code=2)
        quire("--rev", "v1.0", "--depfile", "d", "-o",
              os.path.join(tmp, "n5"), cwd=w, code=2)

    return pubtest.result()


sys.exit(main())
