#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""history.py - last changed, view source, sitemap lastmod, canonical

    history.py QUIRE

Makes a repository at test time whose files change in commits with known
dates: the guide on 2023-01-02, the source on 2023-03-04, the home page
on 2023-05-06. Checks, in the HTML as parsed:

- each page's "Last changed" date and short commit, a page that shows a
  source's items taking the source's date when it is newer, and each
  item's date of its file;
- "View source" and "Defined in" links for each forge of origin (GitHub,
  GitLab, a cgit), none for an unknown host, quire.yml's source_url
  before any of them;
- with base_url, sitemap.xml's <lastmod> per page and <link
  rel="canonical"> on every page (not 404.html); without, neither;
- a shallow clone builds (dates only for what its history holds) and a
  tree without git builds without dates or links.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from pubtest import ENV, QUIRE, check, git, write
import pubtest


class Html(pubtest.ClassHtml):
    """Links by class (their own too), "view source" links, text by
    class."""

    OWN = True

    def link(self, attrs, cls):
        if "qu-source-link" in cls:
            self.links.setdefault("view-source", []).append(
                attrs.get("href"))


def build(src, out, *extra, code=0):
    if os.path.exists(out):
        shutil.rmtree(out)
    r = subprocess.run([QUIRE, "build", "--quiet", "--no-cache", "-o", out]
                       + list(extra) + ["docs"], cwd=src, env=ENV,
                       capture_output=True, text=True)
    check(r.returncode == code, "build in %s: %s" % (src, r.stderr))


SRC = """/**
 * ring_init() - set a ring up
 * @r: the ring
 */
int ring_init(struct ring *r);
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w")
        os.makedirs(w)
        git(w, "init", "-q", "-b", "main")
        write(w, "docs/quire.yml", "title: T\nsrctree: ..\n")
        write(w, "docs/index.md", "# Home\n\nSee the [guide](guide.md).\n")
        write(w, "docs/guide.md", "# Guide\n\n```{kernel-doc} ring.h\n```\n")
        write(w, "docs/plain.md", "# Plain\n\nText.\n")
        write(w, "ring.h", SRC)
        git(w, "add", "-A")
        git(w, "commit", "-qm", "all", date="1600000000 +0000")  # 2020-09-13
        write(w, "docs/guide.md", "# Guide\n\nNew.\n\n```{kernel-doc} "
              "ring.h\n```\n")
        git(w, "commit", "-qam", "guide", date="1672660800 +0000")  # 2023-01-02
        guide_c = git(w, "rev-parse", "HEAD")
        write(w, "ring.h", SRC.replace("set a ring up", "set one up"))
        git(w, "commit", "-qam", "src", date="1677931200 +0000")  # 2023-03-04
        src_c = git(w, "rev-parse", "HEAD")
        write(w, "docs/index.md", "# Home\n\nSee the [guide](guide.md)!\n")
        git(w, "commit", "-qam", "home", date="1683374400 +0000")  # 2023-05-06
        home_c = git(w, "rev-parse", "HEAD")
        out = os.path.join(tmp, "site")

        # dates, from the work tree, no origin: no links
        build(w, out)
        home = Html(os.path.join(out, "index.html"))
        check("Last changed 2023-05-06 in " + home_c[:12] ==
              home.t("qu-page-meta"), "home: %r" % home.t("qu-page-meta"))
        check("view-source" not in home.links, "a link without origin")
        guide = Html(os.path.join(out, "guide.html"))
        # the guide shows ring.h's items, changed after the guide itself
        check("Last changed 2023-03-04 in " + src_c[:12] in
              guide.t("qu-page-meta"), "guide: %r" % guide.t("qu-page-meta"))
        check("Last changed 2023-03-04 in " + src_c[:12] in
              guide.t("qu-meta"), "item: %r" % guide.t("qu-meta"))
        plain = Html(os.path.join(out, "plain.html"))
        check("Last changed 2020-09-13" in plain.t("qu-page-meta"),
              "plain: %r" % plain.t("qu-page-meta"))
        check(not home.canonical, "canonical without base_url")
        check(not os.path.exists(os.path.join(out, "sitemap.xml")),
              "sitemap without base_url")
        with open(os.path.join(out, "guide.html")) as f:
            check('datetime="2023-03-04T12:00:00Z"' in f.read(),
                  "the <time> element's datetime")

        # each forge, from origin; an unknown host gives no link
        forges = [
            ("git@github.com:o/ring.git",
             "https://github.com/o/ring/blob/%s/docs/index.md",
             "https://github.com/o/ring/blob/%s/ring.h#L5"),
            ("https://gitlab.com/g/sub/ring.git",
             "https://gitlab.com/g/sub/ring/-/blob/%s/docs/index.md",
             "https://gitlab.com/g/sub/ring/-/blob/%s/ring.h#L5"),
            ("https://git.kernel.org/pub/scm/linux/ring.git",
             "https://git.kernel.org/pub/scm/linux/ring.git/tree/"
             "docs/index.md?id=%s",
             "https://git.kernel.org/pub/scm/linux/ring.git/tree/"
             "ring.h?id=%s#n5"),
        ]
        git(w, "remote", "add", "origin", "x")
        for remote, page_url, item_url in forges:
            git(w, "remote", "set-url", "origin", remote)
            build(w, out)
            home = Html(os.path.join(out, "index.html"))
            check(home.links.get("view-source") == [page_url % home_c],
                  "%s: page link %r" % (remote, home.links.get(
                      "view-source")))
            guide = Html(os.path.join(out, "guide.html"))
            check(guide.links.get("qu-meta") == [item_url % home_c],
                  "%s: item link %r" % (remote, guide.links.get("qu-meta")))
        git(w, "remote", "set-url", "origin", "https://example.org/r.git")
        build(w, out)
        check("view-source" not in Html(os.path.join(out, "index.html"))
              .links, "a link for an unknown host")

        # source_url in quire.yml wins; base_url: sitemap and canonical
        write(w, "docs/quire.yml", "title: T\nsrctree: ..\n"
              "source_url: https://src.example.org/{path}?l={line}\n"
              "base_url: https://docs.example.org/ring\n")
        git(w, "commit", "-qam", "cfg", date="1690000000 +0000")
        git(w, "remote", "set-url", "origin", "git@github.com:o/ring.git")
        # a zero-config file page links to its source file
        zc = os.path.join(tmp, "zc")
        r = subprocess.run([QUIRE, "build", "--quiet", "--no-cache", "-o",
                            zc, "."], cwd=w, env=ENV,
                           capture_output=True, text=True)
        check(r.returncode == 0, "zero-config: " + r.stderr)
        fp = Html(os.path.join(zc, "ring.h.html"))
        check(fp.links.get("view-source") ==
              ["https://github.com/o/ring/blob/%s/ring.h" % git(w, "rev-parse", "HEAD")],
              "zero-config file page link %r" % fp.links.get("view-source"))
        check("Last changed 2023-03-04" in fp.t("qu-page-meta"),
              "zero-config file page date %r" % fp.t("qu-page-meta"))
        check("view-source" not in Html(os.path.join(zc, "index.html"))
              .links, "the zero-config home page has no one source")

        build(w, out)
        home = Html(os.path.join(out, "index.html"))
        check(home.links.get("view-source") ==
              ["https://src.example.org/docs/index.md?l=1"],
              "source_url page link %r" % home.links.get("view-source"))
        guide = Html(os.path.join(out, "guide.html"))
        check(guide.links.get("qu-meta") ==
              ["https://src.example.org/ring.h?l=5"],
              "source_url item link %r" % guide.links.get("qu-meta"))
        check(home.canonical == ["https://docs.example.org/ring/index.html"],
              "canonical %r" % home.canonical)
        check(guide.canonical == ["https://docs.example.org/ring/guide.html"],
              "canonical %r" % guide.canonical)
        check(Html(os.path.join(out, "genindex.html")).canonical ==
              ["https://docs.example.org/ring/genindex.html"],
              "genindex canonical")
        check(not Html(os.path.join(out, "404.html")).canonical,
              "404.html has no canonical link")
        ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
        sm = ET.parse(os.path.join(out, "sitemap.xml")).getroot()
        lastmod = {u.find("s:loc", ns).text: u.find("s:lastmod", ns).text
                   for u in sm.findall("s:url", ns)}
        check(lastmod == {
            "https://docs.example.org/ring/index.html":
                "2023-05-06T12:00:00Z",
            "https://docs.example.org/ring/guide.html":
                "2023-03-04T12:00:00Z",
            "https://docs.example.org/ring/plain.html":
                "2020-09-13T12:26:40Z",
        }, "sitemap lastmod %r" % lastmod)

        # with the cache: a page's new date is shown (the version, an
        # abbreviated commit id here, changes too, so every page renders)
        cached = os.path.join(tmp, "cached")
        r = subprocess.run([QUIRE, "build", "--quiet", "-o", cached,
                            "docs"], cwd=w, env=ENV)
        write(w, "docs/plain.md", "# Plain\n\nText.\n\n")
        git(w, "commit", "-qam", "plain", date="1700000000 +0000")
        r = subprocess.run([QUIRE, "build", "-o", cached, "docs"], cwd=w,
                           env=ENV, capture_output=True, text=True)
        check(r.returncode == 0, "cached build: " + r.stderr)
        plain = Html(os.path.join(cached, "plain.html"))
        check("2023-11-14" in plain.t("qu-page-meta"),
              "cached: plain %r" % plain.t("qu-page-meta"))
        # the answers are kept for the next build from the same commit:
        # a doctored memo shows, a new commit walks again
        memo = os.path.join(tmp, ".quire-cache", "last-changed")
        with open(memo) as f:
            text = f.read()
        check(text.startswith("quire-last-changed 1 " +
                              git(w, "rev-parse", "HEAD")),
              "memo header %r" % text[:80])
        with open(memo, "w") as f:
            f.write(text.replace("1700000000 ", "946684800 "))
        # no input changed: the stamp would stop the build at once
        for n in os.listdir(os.path.dirname(memo)):
            if n.startswith("stamp-"):
                os.remove(os.path.join(os.path.dirname(memo), n))
        subprocess.run([QUIRE, "build", "--quiet", "-o", cached, "docs"],
                       cwd=w, env=ENV)
        check("2000-01-01" in Html(os.path.join(cached, "plain.html"))
              .t("qu-page-meta"), "the memo was not read")
        git(w, "commit", "-q", "--allow-empty", "-m", "empty",
            date="1700000100 +0000")
        subprocess.run([QUIRE, "build", "--quiet", "-o", cached, "docs"],
                       cwd=w, env=ENV)
        check("2023-11-14" in Html(os.path.join(cached, "plain.html"))
              .t("qu-page-meta"), "a new commit kept the old memo")
        git(w, "reset", "-q", "--hard", "HEAD~1")
        git(w, "reset", "-q", "--hard", "HEAD~1")

        # last_changed: false: no dates, links stay
        write(w, "docs/quire.yml", "title: T\nsrctree: ..\n"
              "last_changed: false\n")
        build(w, out)
        home = Html(os.path.join(out, "index.html"))
        check("Last changed" not in home.t("qu-page-meta") and
              home.links.get("view-source"),
              "last_changed: false: %r %r" % (home.t("qu-page-meta"),
                                              home.links.get("view-source")))
        git(w, "checkout", "-q", "docs/quire.yml")

        # a shallow clone of depth 3: quire.yml's, the home page's and the
        # source's commits; what changed before has no date
        sh = os.path.join(tmp, "shallow")
        subprocess.run(["git", "clone", "-q", "--depth", "3",
                        "file://" + w, sh], env=ENV, check=True,
                       capture_output=True)
        build(sh, out)
        home = Html(os.path.join(out, "index.html"))
        check("2023-05-06" in home.t("qu-page-meta"),
              "shallow: home %r" % home.t("qu-page-meta"))
        plain = Html(os.path.join(out, "plain.html"))
        check("Last changed" not in plain.t("qu-page-meta"),
              "shallow: a date beyond the cut: %r" % plain.t("qu-page-meta"))

        # no git at all
        nog = os.path.join(tmp, "nogit")
        shutil.copytree(w, nog, ignore=shutil.ignore_patterns(".git"))
        build(nog, out)
        home = Html(os.path.join(out, "index.html"))
        check("Last changed" not in home.t("qu-page-meta") and
              home.links.get("view-source") ==
              ["https://src.example.org/docs/index.md?l=1"],
              "without git: %r %r" % (home.t("qu-page-meta"),
                                      home.links.get("view-source")))
    return pubtest.result()


sys.exit(main())
