#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""version.py - which repository a site's version comes from

    version.py QUIRE

The rule (docs/configuration.md, `version`): the git work tree that
holds the docs folder, whatever `srctree` names; `version:` in quire.yml
wins; outside git, none. Made here: a docs repository tagged d1.0 whose
srctree is a second repository tagged s9.9, a docs folder outside git
over that same source repository, and a --rev build of the docs
repository.
"""
import html.parser
import os
import subprocess
import sys
import tempfile

from pubtest import ENV, QUIRE, check, git, write
import pubtest


class Version(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__()
        self.inside = False
        self.found = None
        with open(path) as f:
            self.feed(f.read())

    def handle_starttag(self, tag, attrs):
        if "qu-version" in (dict(attrs).get("class") or "").split():
            self.inside = True
            self.found = ""

    def handle_endtag(self, tag):
        self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.found += data


def version_of(*args, cwd):
    with tempfile.TemporaryDirectory() as out:
        site = os.path.join(out, "site")
        r = subprocess.run([QUIRE, "build", "--quiet", "--no-cache", "-o",
                            site] + list(args), cwd=cwd, env=ENV,
                           capture_output=True, text=True)
        check(r.returncode == 0, "build %s: %s" % (args, r.stderr))
        if r.returncode:
            return None
        return Version(os.path.join(site, "index.html")).found


def main():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        git(src, "init", "-q")
        write(src, "lib.c", "/**\n * f() - a function\n */\nvoid f(void);\n")
        git(src, "add", "-A")
        git(src, "commit", "-qm", "src")
        git(src, "tag", "s9.9")
        docs = os.path.join(tmp, "docs")
        os.makedirs(docs)
        git(docs, "init", "-q")
        write(docs, "quire.yml", "title: T\nsrctree: ../src\n")
        write(docs, "index.md", "# Home\n\n```{kernel-doc} lib.c\n```\n")
        git(docs, "add", "-A")
        git(docs, "commit", "-qm", "docs")
        git(docs, "tag", "d1.0")

        v = version_of(".", cwd=docs)
        check(v == "d1.0", "docs repository: version %r, not d1.0" % v)
        # uncommitted change in the docs: -dirty; in the sources: not
        write(src, "lib.c", "/**\n * f() - changed\n */\nvoid f(void);\n")
        v = version_of(".", cwd=docs)
        check(v == "d1.0", "a change in srctree made %r" % v)
        write(docs, "index.md", "# Home changed\n\n```{kernel-doc} lib.c\n```\n")
        v = version_of(".", cwd=docs)
        check(v == "d1.0-dirty", "a change in the docs: %r" % v)
        # quire.yml's version wins
        write(docs, "quire.yml", "title: T\nsrctree: ../src\nversion: '7'\n")
        v = version_of(".", cwd=docs)
        check(v == "7", "version: in quire.yml gave %r" % v)
        # a docs folder outside git shows none, even over a git srctree
        plain = os.path.join(tmp, "plain")
        write(plain, "quire.yml", "title: T\nsrctree: ../src\n")
        write(plain, "index.md", "# Home\n")
        v = version_of(".", cwd=plain)
        check(v is None or v == "", "docs outside git: %r" % v)
    return pubtest.result()


sys.exit(main())
