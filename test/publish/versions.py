#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""versions.py - versions: in quire.yml, one folder per version

    versions.py QUIRE

Makes a repository with three tagged versions of a docs folder (v1.0;
v2.0, which adds guide/new.md; v3.0-rc1, a pre-release), whose work
tree's quire.yml lists them. Checks, in the HTML as parsed: OUT/<label>/
per version, each showing its own text and version; versions.json; the
redirect OUT/index.html to the latest (v2.0: the pre-release is never
the latest); the switcher on every page links to the same page of every
version, or to its nearest parent where the page does not exist; the
banner on every version but the latest, linking to the latest; a second
build gives the same bytes; a broken versions: entry is an error.
"""
import filecmp
import json
import os
import subprocess
import sys
import tempfile

from pubtest import ENV, QUIRE, check, git, write
import pubtest


class Page(pubtest.ClassHtml):
    """Links and text by class, and the switcher's current entry."""

    def __init__(self, path):
        self.current = []
        super().__init__(path)

    def link(self, attrs, cls):
        if attrs.get("aria-current") == "page" and any(
                "qu-versions" in s for s in self.stack):
            self.current.append(attrs.get("href"))


BASE = "https://app.example.org/docs/"
VERSIONS = """title: App
versions:
  - rev: v3.0-rc1
    label: "3.0-rc1"
    prerelease: true
  - rev: v2.0
    label: "2.0"
  - rev: v1.0
    label: "1.0"
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w")
        os.makedirs(w)
        git(w, "init", "-q", "-b", "main")
        write(w, "docs/quire.yml", "title: App\nbase_url: %s\n" % BASE)
        write(w, "docs/index.md", "# App\n\nVersion one.\n")
        write(w, "docs/guide/index.md", "# Guide\n\nThe guide.\n")
        write(w, "docs/guide/use.md", "# Use\n\nUse it.\n")
        git(w, "add", "-A")
        git(w, "commit", "-qm", "one")
        git(w, "tag", "v1.0")
        write(w, "docs/index.md", "# App\n\nVersion two.\n")
        write(w, "docs/guide/new.md", "# New\n\nNew in two.\n")
        git(w, "add", "-A")
        git(w, "commit", "-qm", "two")
        git(w, "tag", "v2.0")
        write(w, "docs/index.md", "# App\n\nVersion three.\n")
        git(w, "commit", "-qam", "three")
        git(w, "tag", "v3.0-rc1")
        # the work tree's quire.yml names the versions (uncommitted)
        write(w, "docs/quire.yml", VERSIONS)
        out = os.path.join(tmp, "site")
        r = subprocess.run([QUIRE, "build", "--quiet", "docs", "-o", out],
                           cwd=w, env=ENV, capture_output=True, text=True)
        check(r.returncode == 0, "build: %s" % r.stderr)
        for label, text in (("1.0", "Version one."), ("2.0", "Version two."),
                            ("3.0-rc1", "Version three.")):
            p = Page(os.path.join(out, label, "index.html"))
            check(text in p.t("qu-content"), "%s: %r" %
                  (label, p.t("qu-content")))
            check(p.t("qu-version") == "v" + label, "%s shows %r" %
                  (label, p.t("qu-version")))
        with open(os.path.join(out, "versions.json")) as f:
            vj = json.load(f)
        check(vj["latest"] == "2.0", "latest %r" % vj["latest"])
        check([v["label"] for v in vj["versions"]] ==
              ["3.0-rc1", "2.0", "1.0"], "versions.json order")
        check(vj["versions"][0]["prerelease"] and
              not vj["versions"][1]["prerelease"], "prerelease flags")
        with open(os.path.join(out, "index.html")) as f:
            check('url=2.0/index.html' in f.read(), "redirect to latest")

        # the switcher keeps the page, or its nearest parent
        p = Page(os.path.join(out, "2.0", "guide", "new.html"))
        check(p.links.get("qu-versions") == [
            "../../3.0-rc1/guide/new.html", "../../2.0/guide/new.html",
            "../../1.0/guide/index.html"],
            "switcher on 2.0/guide/new.html: %r" % p.links.get("qu-versions"))
        check(p.current == ["../../2.0/guide/new.html"],
              "current version %r" % p.current)
        check(not p.t("qu-version-banner"), "a banner on the latest")
        p = Page(os.path.join(out, "1.0", "guide", "use.html"))
        check(p.links.get("qu-versions") == [
            "../../3.0-rc1/guide/use.html", "../../2.0/guide/use.html",
            "../../1.0/guide/use.html"], "switcher on 1.0/guide/use.html")
        check("documentation of 1.0" in p.t("qu-version-banner") and
              p.links.get("qu-version-banner") ==
              ["../../2.0/guide/use.html"],
              "banner on 1.0: %r %r" % (p.t("qu-version-banner"),
                                         p.links.get("qu-version-banner")))
        p = Page(os.path.join(out, "3.0-rc1", "index.html"))
        check("latest version is 2.0" in p.t("qu-version-banner"),
              "banner on the pre-release: %r" % p.t("qu-version-banner"))

        # base_url is the versioned site's: canonical links lead to the
        # latest, and each version's sitemap names its own folder
        p = Page(os.path.join(out, "1.0", "guide", "use.html"))
        check(p.canonical == [BASE + "2.0/guide/use.html"],
              "canonical of 1.0: %r" % p.canonical)
        p = Page(os.path.join(out, "3.0-rc1", "guide", "new.html"))
        check(p.canonical == [BASE + "2.0/guide/new.html"],
              "canonical of 3.0-rc1: %r" % p.canonical)
        with open(os.path.join(out, "1.0", "sitemap.xml")) as f:
            sm = f.read()
            check(BASE + "1.0/guide/use.html" in sm and
                  "2.0/" not in sm, "1.0's sitemap")

        # the same bytes again
        again = os.path.join(tmp, "again")
        subprocess.run([QUIRE, "build", "--quiet", "docs", "-o", again],
                       cwd=w, env=ENV, check=True, capture_output=True)
        cmp = filecmp.dircmp(out, again)

        def same(d):
            ok = not d.diff_files and not d.left_only and not d.right_only
            if d.diff_files:
                print("differ:", d.diff_files)
            return ok and all(same(s) for s in d.subdirs.values())
        check(same(cmp), "two builds differ")

        # a broken entry: an error, nothing built
        write(w, "docs/quire.yml", VERSIONS + "  - rev: v1.0\n    label: "
              "../x\n")
        r = subprocess.run([QUIRE, "build", "--quiet", "docs", "-o",
                            os.path.join(tmp, "bad")], cwd=w, env=ENV,
                           capture_output=True, text=True)
        check(r.returncode != 0 and "-Wbad-config" in r.stderr,
              "a bad label: %d %s" % (r.returncode, r.stderr))
    return pubtest.result()


sys.exit(main())
