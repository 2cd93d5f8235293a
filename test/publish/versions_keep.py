#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""versions_keep.py - versions kept, rebuilt and removed alone; latest/; -j

    versions_keep.py QUIRE

Makes a repository with tags v1.0, v2.0 and v3.0 of a docs folder and a
work tree whose quire.yml lists them. Checks:

- a second build keeps every version (the summary says so, and not one
  file of OUT/<label>/ is written again: same inode, same mtime);
- a version whose revision moves (v1.0 to a new commit with the same
  pages) is built again alone: the two others are kept;
- a version no longer listed has its folder removed; a folder OUT holds
  that quire did not write (no marker) is left alone, and so is a folder
  of a version quire did not build even when it carries a marker, and a
  folder outside OUT that a doctored OUT/.quire-versions names;
- OUT/latest/ is a copy of the latest version, follows it when the
  latest changes, and "latest" cannot be a label;
- the versions built side by side (-j4) give the same bytes as one
  after the other (-j1).
"""
import os
import subprocess
import tempfile

from pubtest import (ENV, QUIRE, check, files_of, git, quire_build, repo,
                     same_tree, write)
import pubtest


def listing(*versions):
    text = "title: App\nversions:\n"
    for rev, label in versions:
        text += "  - rev: %s\n    label: \"%s\"\n" % (rev, label)
    return text


def build(w, out, *extra):
    return quire_build("docs", "-o", out, *extra, cwd=w)


def stamps(top):
    """Every file's inode and mtime: a file written again changes both."""
    out = {}
    for f in files_of(top):
        st = os.stat(os.path.join(top, f))
        out[f] = (st.st_ino, st.st_mtime_ns)
    return out


def text_of(path):
    with open(path) as f:
        return f.read()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        w = repo(tmp)
        write(w, "docs/quire.yml", "title: App\n")
        write(w, "docs/guide.md", "# Guide\n\nThe guide.\n")
        for n in ("1", "2", "3"):
            write(w, "docs/index.md", "# App\n\nVersion %s.\n" % n)
            git(w, "add", "-A")
            git(w, "commit", "-qm", "v" + n)
            git(w, "tag", "v%s.0" % n)
        three = (("v3.0", "3.0"), ("v2.0", "2.0"), ("v1.0", "1.0"))
        write(w, "docs/quire.yml", listing(*three))
        out = os.path.join(tmp, "site")
        e = build(w, out)
        check("3 built, 0 kept" in e, "first build: %s" % e)
        same_tree(os.path.join(out, "3.0"), os.path.join(out, "latest"),
                  "latest/ against 3.0/")

        # nothing changed: every version kept, not one file written
        before = {v: stamps(os.path.join(out, v))
                  for v in ("1.0", "2.0", "3.0", "latest")}
        e = build(w, out)
        check("0 built, 3 kept (unchanged), 0 removed" in e,
              "second build: %s" % e)
        for v, st in before.items():
            check(stamps(os.path.join(out, v)) == st,
                  "%s written again" % v)

        # v1.0 moves to a commit with the same pages: 1.0 alone is built
        git(w, "checkout", "-q", "v1.0")
        write(w, "docs/index.md", "# App\n\nVersion 1, fixed.\n")
        git(w, "commit", "-qam", "v1 fixed")
        git(w, "tag", "-f", "v1.0")
        git(w, "checkout", "-q", "main")
        write(w, "docs/quire.yml", listing(*three))
        e = build(w, out)
        check("1 built, 2 kept" in e, "moved tag: %s" % e)
        check("Version 1, fixed." in text_of(os.path.join(out, "1.0",
                                                          "index.html")),
              "1.0 not rebuilt")
        for v in ("2.0", "3.0", "latest"):
            check(stamps(os.path.join(out, v)) == before[v],
                  "%s written again for 1.0's change" % v)

        # a folder quire did not write stays; one with a marker that no
        # build of these versions made stays too
        write(out, "mine/keep.txt", "mine\n")
        write(out, "other/.quire-site", "quire-site 1\n")
        # nor a folder outside OUT that OUT/.quire-versions is made to name
        write(tmp, "victim/.quire-site", "quire-site 1\n")
        with open(os.path.join(out, ".quire-versions"), "a") as f:
            f.write("../victim 0123456789abcdef\n")
        # 1.0 leaves the list: its folder goes; the switchers change
        write(w, "docs/quire.yml", listing(("v3.0", "3.0"), ("v2.0", "2.0")))
        e = build(w, out)
        check("2 built, 0 kept (unchanged), 1 removed" in e,
              "1.0 removed: %s" % e)
        check(not os.path.exists(os.path.join(out, "1.0")), "1.0 still there")
        check(os.path.exists(os.path.join(out, "mine", "keep.txt")) and
              os.path.exists(os.path.join(out, "other", ".quire-site")),
              "a folder quire did not write was removed")
        check(os.path.exists(os.path.join(tmp, "victim", ".quire-site")),
              "a folder outside OUT was removed")
        check("1.0/" not in text_of(os.path.join(out, "2.0", "index.html")),
              "2.0 still links to 1.0")

        # the latest changes: latest/ follows
        write(w, "docs/quire.yml", "title: App\nversions:\n"
              "  - rev: v3.0\n    label: \"3.0\"\n    prerelease: true\n"
              "  - rev: v2.0\n    label: \"2.0\"\n")
        build(w, out)
        same_tree(os.path.join(out, "2.0"), os.path.join(out, "latest"),
                  "latest/ against 2.0/")
        check('url=2.0/index.html' in text_of(os.path.join(out,
                                                           "index.html")),
              "the redirect does not lead to 2.0")

        # "latest" is not a label
        write(w, "docs/quire.yml", listing(("v3.0", "latest")))
        r = subprocess.run([QUIRE, "build", "--quiet", "docs", "-o",
                            os.path.join(tmp, "bad")], cwd=w, env=ENV,
                           capture_output=True, text=True)
        check(r.returncode == 2 and "-Wbad-config" in r.stderr,
              "label latest: %d %s" % (r.returncode, r.stderr))

        # side by side or one after the other: the same bytes
        write(w, "docs/quire.yml", listing(*three))
        serial = os.path.join(tmp, "serial")
        parallel = os.path.join(tmp, "parallel")
        build(w, serial, "-j1")
        build(w, parallel, "-j4")
        same_tree(serial, parallel, "-j1 against -j4")
    return pubtest.result()


if __name__ == "__main__":
    raise SystemExit(main())
