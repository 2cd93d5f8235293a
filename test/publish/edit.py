#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""edit.py - "Edit this page" links, for a branch and never for a tag

    edit.py QUIRE

Makes a repository on branch main, tagged v1.0, and checks each page's
"Edit this page" link (class qu-edit-link):

- a build of the work tree on main, with origin on GitHub or GitLab,
  links to the forge's editor on main; with origin on a cgit (no
  editor) or an unknown host, none, while "View source" stays;
- --rev main (a branch, from a bare clone) links the same way;
  --rev v1.0 (a tag), --rev of a commit id and a detached HEAD do not;
- quire.yml's edit_url comes before origin, for a branch and for a
  tree without git, and gives no link for a tag either;
- a zero-config page made of a C file has no edit link.
"""
import html.parser
import os
import shutil
import subprocess
import tempfile

from pubtest import ENV, check, git, quire_build, repo, write
import pubtest


class Links(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__()
        self.found = {}
        with open(path) as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("class") in ("qu-edit-link",
                                             "qu-source-link"):
            self.found.setdefault(a["class"], []).append(a.get("href"))


def links(out, page="guide.html"):
    return Links(os.path.join(out, page)).found


def build(cwd, out, *args):
    if os.path.exists(out):
        shutil.rmtree(out)
    quire_build("--quiet", "--no-cache", "-o", out, *args, cwd=cwd)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        w = repo(tmp)
        write(w, "docs/guide.md", "# Guide\n\nText.\n")
        write(w, "docs/index.md", "# Home\n")
        write(w, "docs/quire.yml", "srctree: ..\ntitle: Edit\n")
        write(w, "ring.h", "/**\n * ring_init() - set up\n */\n"
              "int ring_init(void);\n")
        git(w, "add", "-A")
        git(w, "commit", "-qm", "one")
        git(w, "tag", "v1.0")
        commit = git(w, "rev-parse", "HEAD")
        out = os.path.join(tmp, "out")

        git(w, "remote", "add", "origin", "git@github.com:o/ring.git")
        build(w, out, "docs")
        check(links(out).get("qu-edit-link") ==
              ["https://github.com/o/ring/edit/main/docs/guide.md"],
              "GitHub: %r" % links(out))
        for remote, want in (
                ("https://gitlab.com/g/ring.git",
                 ["https://gitlab.com/g/ring/-/edit/main/docs/guide.md"]),
                ("https://git.kernel.org/pub/scm/linux/kernel/git/x/"
                 "ring.git", None),
                ("https://example.org/ring.git", None)):
            git(w, "remote", "set-url", "origin", remote)
            build(w, out, "docs")
            check(links(out).get("qu-edit-link") == want,
                  "%s: %r" % (remote, links(out)))
        check(links(out).get("qu-source-link") is None,
              "an unknown host gives a view link")

        # a branch read from git links; a tag, a commit id, a detached
        # HEAD do not (a reader cannot edit them)
        git(w, "remote", "set-url", "origin", "git@github.com:o/ring.git")
        bare = os.path.join(tmp, "bare.git")
        subprocess.run(["git", "clone", "-q", "--bare", w, bare], env=ENV,
                       check=True)
        git(bare, "remote", "set-url", "origin", "git@github.com:o/ring.git")
        build(tmp, out, "--rev", "main", "--repo", bare, "docs")
        check(links(out).get("qu-edit-link") ==
              ["https://github.com/o/ring/edit/main/docs/guide.md"],
              "--rev main: %r" % links(out))
        for rev in ("v1.0", commit):
            build(tmp, out, "--rev", rev, "--repo", bare, "docs")
            got = links(out)
            check("qu-edit-link" not in got and
                  got.get("qu-source-link") ==
                  ["https://github.com/o/ring/blob/%s/docs/guide.md" %
                   commit], "--rev %s: %r" % (rev, got))
        git(w, "checkout", "-q", "--detach")
        build(w, out, "docs")
        check("qu-edit-link" not in links(out),
              "detached HEAD: %r" % links(out))
        git(w, "checkout", "-q", "main")

        # edit_url before origin; still none for a tag
        write(w, "docs/quire.yml", "title: T\nsrctree: ..\nedit_url: "
              "https://edit.example.org/{path}?b=main\n")
        build(w, out, "docs")
        check(links(out).get("qu-edit-link") ==
              ["https://edit.example.org/docs/guide.md?b=main"],
              "edit_url: %r" % links(out))
        git(w, "commit", "-qam", "edit_url")
        git(w, "tag", "v1.1")
        build(w, out, "--rev", "v1.1", "docs")
        check("qu-edit-link" not in links(out),
              "edit_url, --rev v1.1: %r" % links(out))
        build(w, out, "--rev", "main", "docs")
        check(links(out).get("qu-edit-link") ==
              ["https://edit.example.org/docs/guide.md?b=main"],
              "edit_url, --rev main: %r" % links(out))

        # a tree without git: edit_url names its files from srctree
        plain = os.path.join(tmp, "plain")
        write(plain, "docs/quire.yml", "title: T\nsrctree: ..\nedit_url: "
              "https://edit.example.org/{path}\n")
        write(plain, "docs/guide.md", "# Guide\n")
        build(plain, out, "docs")
        check(links(out).get("qu-edit-link") ==
              ["https://edit.example.org/docs/guide.md"],
              "without git: %r" % links(out))

        # a zero-config page of a C file: no edit link
        build(w, out, ".")
        check("qu-edit-link" not in links(out, "ring.h.html"),
              "zero-config: %r" % links(out, "ring.h.html"))
    return pubtest.result()


if __name__ == "__main__":
    raise SystemExit(main())
