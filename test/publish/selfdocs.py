#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""selfdocs.py - quire's own docs, per version, by the publish command

    selfdocs.py QUIRE SOURCE_ROOT

Clones quire's own repository (SOURCE_ROOT; skips, 77, when it is no
git work tree, as in a release tarball) with its history, makes up two
releases on it (v0.1 on the commit before HEAD, v0.2 on HEAD), lists
them in a copy of docs/publish.yml as that file says a release does,
and runs the documented command, `quire build docs --versions
docs/publish.yml -o OUT`, in the clone. Checks: one folder per version
(dev, 0.2, 0.1), each a whole site of quire's guide and API pages
showing its own version; 0.2 the latest, OUT/latest/ its copy; and the
file as committed builds main alone.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from pubtest import ENV, check, git, quire_build, same_tree, write
import pubtest

SRC = os.path.abspath(sys.argv[2])
RELEASES = """  - rev: v0.2
    label: "0.2"
  - rev: v0.1
    label: "0.1"
"""


def publish(clone, listing, out):
    """The documented command."""
    return quire_build("docs", "--versions", listing, "-o", out, cwd=clone)


def main():
    if subprocess.run(["git", "-C", SRC, "rev-parse", "HEAD"], env=ENV,
                      capture_output=True).returncode:
        print("SKIP: %s is not a git work tree" % SRC)
        return 77
    with open(os.path.join(SRC, "docs", "publish.yml")) as f:
        shipped = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        clone = os.path.join(tmp, "quire")
        subprocess.run(["git", "clone", "-q", "--no-local", SRC, clone],
                       env=ENV, check=True, capture_output=True)
        # the clone's HEAD on a branch named main, as the file expects
        git(clone, "checkout", "-q", "-B", "main")
        git(clone, "tag", "v0.1", "HEAD~1")
        git(clone, "tag", "v0.2", "HEAD")

        # as committed: main alone, the latest
        write(clone, "docs/publish.yml", shipped)
        out = os.path.join(tmp, "site")
        publish(clone, "docs/publish.yml", out)
        with open(os.path.join(out, "versions.json")) as f:
            vj = json.load(f)
        check(vj["latest"] == "dev" and len(vj["versions"]) == 1,
              "as committed: %r" % vj)

        # a release as the file says: main a pre-release, the tags below
        listing = shipped.replace("    latest: true\n",
                                  "    prerelease: true\n") + RELEASES
        check(listing != shipped + RELEASES, "the file names no latest main")
        write(clone, "docs/publish.yml", listing)
        out = os.path.join(tmp, "released")
        e = publish(clone, "docs/publish.yml", out)
        check("3 built" in e, "summary: %s" % e)
        with open(os.path.join(out, "versions.json")) as f:
            vj = json.load(f)
        check(vj["latest"] == "0.2" and
              [v["label"] for v in vj["versions"]] == ["dev", "0.2", "0.1"],
              "released: %r" % vj)
        for label, shown in (("0.1", "v0.1"), ("0.2", "v0.2")):
            for page in ("index.html", "publishing.html",
                         "api/build.html"):
                path = os.path.join(out, label, page)
                check(os.path.isfile(path), "no %s/%s" % (label, page))
            with open(os.path.join(out, label, "index.html")) as f:
                check(re.search('class="qu-version"[^>]*>%s<' %
                                re.escape(shown), f.read()),
                      "%s does not show %s" % (label, shown))
        same_tree(os.path.join(out, "0.2"), os.path.join(out, "latest"),
                  "latest/ against 0.2/")
    return pubtest.result()


if __name__ == "__main__":
    raise SystemExit(main())
