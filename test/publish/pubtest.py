# SPDX-License-Identifier: MIT
"""pubtest.py - what the publish tests share

The quire under test (argv[1]), a git environment that reads no user or
system configuration and dates commits at a fixed time, git(), write(),
check() with its count of failures, repo(), quire_build(), same_tree(),
result(), and ClassHtml, a page's links and text by class.
"""
import filecmp
import html.parser
import os
import subprocess
import sys

QUIRE = os.path.abspath(sys.argv[1])
ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME="/nonexistent",
           GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org",
           GIT_COMMITTER_NAME="C", GIT_COMMITTER_EMAIL="c@example.org",
           GIT_AUTHOR_DATE="1700000000 +0000",
           GIT_COMMITTER_DATE="1700000000 +0000")
failures = 0


class ClassHtml(html.parser.HTMLParser):
    """A page's links by the classes of the elements they are in (with
    OWN, by their own classes too), its text by class, and its <link
    rel=canonical>. A subclass may look at each link in link()."""

    VOID = ("meta", "link", "img", "br", "input", "hr")
    OWN = False

    def __init__(self, path):
        super().__init__()
        self.stack = []
        self.text = {}
        self.links = {}
        self.canonical = []
        with open(path) as f:
            self.feed(f.read())

    def link(self, attrs, cls):
        pass

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical.append(a.get("href"))
        if tag == "a":
            for c in [x for s in self.stack for x in s] + \
                    (cls if self.OWN else []):
                self.links.setdefault(c, []).append(a.get("href"))
            self.link(a, cls)
        if tag not in self.VOID:
            self.stack.append(cls)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for classes in self.stack:
            for c in classes:
                self.text.setdefault(c, []).append(data)

    def t(self, c):
        return "".join(self.text.get(c, []))


def check(ok, what):
    """Count and print a failure; the test goes on."""
    global failures
    if not ok:
        failures += 1
        print("FAIL:", what)


def git(repo, *args, date=None):
    """Run git in repo (commits dated date, else ENV's); its stdout."""
    env = ENV
    if date:
        env = dict(ENV, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", "-C", repo] + list(args), env=env,
                          check=True, capture_output=True,
                          text=True).stdout.strip()


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def repo(top, name="w"):
    """A new repository top/name on branch main; its path."""
    path = os.path.join(top, name)
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    return path


def quire_build(*args, cwd=None, code=0):
    """quire build ARGS in cwd, checked for exit status code; stderr."""
    r = subprocess.run([QUIRE, "build"] + list(args), cwd=cwd, env=ENV,
                       capture_output=True, text=True)
    check(r.returncode == code, "quire build %s: exit %d, not %d: %s" %
          (" ".join(args), r.returncode, code, r.stderr.strip()))
    return r.stderr


def files_of(top):
    """Every file below top, relative to it."""
    out = set()
    for d, _, fs in os.walk(top):
        for f in fs:
            out.add(os.path.relpath(os.path.join(d, f), top))
    return out


def same_tree(a, b, what):
    """Every file of two sites, compared byte for byte."""
    fa, fb = files_of(a), files_of(b)
    check(fa == fb, "%s: different files: %s" % (what, sorted(fa ^ fb)))
    for f in sorted(fa & fb):
        check(filecmp.cmp(os.path.join(a, f), os.path.join(b, f),
                          shallow=False), "%s: %s differs" % (what, f))


def result():
    """The exit status: 1 after any failure, else 0 (and "ok")."""
    if failures:
        print("%d failures" % failures)
        return 1
    print("ok")
    return 0
