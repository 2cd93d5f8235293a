#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden site tests.

Each folder test/site/CASE/ holds a tree in in/ (a docs root with
quire.yml, or a bare source tree for zero-config mode) and what building it
must give:

  expect.html    fragments: "== PAGE#ID" lines, each followed by the HTML
                 of the element with that id on that page; compared as
                 canonicalised DOM, not as bytes
  expect.diag    the diagnostics exactly as printed (absent: none)
  expect.status  the exit status (absent: 0)
  expect.graph   the symbol graph as graphdump prints it (optional)
  expect.files   files besides the pages the site must hold, one path a
                 line; an .svg must be an SVG document (optional)

Every case is also built with -j1 and -j8 and the two sites compared byte
for byte, checked by the link checker, and checked for script: no
<script> but the theme's own, no on* attribute, no javascript: or data:
URL; and every entry of objects.inv must resolve. QUIRE_REGEN=1 rewrites expect.html and expect.diag from the output;
review the change with git diff.

usage: golden.py QUIRE LINKCHECK CASES_DIR [--graphdump GRAPHDUMP] [CASE...]
"""
import filecmp
import html
import html.parser
import os
import re
import subprocess
import sys
import tempfile

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs):
        self.tag = tag
        self.attrs = attrs
        self.children = []


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node(None, [])
        self.stack = [self.root]
        self.ids = {}
        self.all = []

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs)
        self.stack[-1].children.append(n)
        self.all.append(n)
        for k, v in attrs:
            if k == "id" and v not in self.ids:
                self.ids[v] = n
        if tag not in VOID:
            self.stack.append(n)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(text):
    t = Tree()
    t.feed(text)
    t.close()
    return t


def canon(n):
    if isinstance(n, str):
        s = re.sub(r"\s+", " ", n)
        return html.escape(s, quote=False)
    attrs = "".join(' %s="%s"' % (k, html.escape(v or "", quote=True))
                    for k, v in sorted(n.attrs))
    inner = "".join(canon(c) for c in n.children)
    if n.tag in VOID:
        return "<%s%s>" % (n.tag, attrs)
    return "<%s%s>%s</%s>" % (n.tag, attrs, inner, n.tag)


def canon_html(text):
    t = parse(text)
    return "".join(canon(c) for c in t.root.children).strip()


def read(path, default=None):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return default


def build(quire, case, out, jobs):
    # the cases are outside git as a user's tree would be: quire's own
    # history must not reach their "last changed" dates or links
    env = dict(os.environ, QUIRE_NO_PROGRESS="1",
               GIT_CEILING_DIRECTORIES=os.path.dirname(
                   os.path.abspath(case)))
    r = subprocess.run([quire, "build", "in", "-o", out, "--quiet",
                        "-j", str(jobs)], cwd=case, env=env,
                       capture_output=True, text=True, timeout=600)
    return r.returncode, r.stderr


def no_script(site):
    """Return the problems of the XSS invariant over every page."""
    bad = []
    for d, _, files in os.walk(site):
        for f in sorted(files):
            if not f.endswith(".html"):
                continue
            p = os.path.join(d, f)
            t = parse(read(p))
            rel = os.path.relpath(p, site)
            for n in t.all:
                attrs = dict(n.attrs)
                if n.tag == "script" and not re.match(
                        r"^(\.\./)*_static/", attrs.get("src") or ""):
                    bad.append("%s: a <script> not from the theme" % rel)
                for k, v in n.attrs:
                    if k.startswith("on"):
                        bad.append("%s: attribute %s on <%s>" %
                                   (rel, k, n.tag))
                    if k in ("href", "src") and v and re.match(
                            r"^\s*(javascript|vbscript|data):", v, re.I):
                        bad.append("%s: %s=%s" % (rel, k, v))
    return bad


def inventory(site):
    """Return the problems of objects.inv: every entry must resolve."""
    import zlib
    path = os.path.join(site, "objects.inv")
    if not os.path.exists(path):
        return ["no objects.inv"]
    data = open(path, "rb").read()
    head = 0
    for _ in range(4):
        head = data.index(b"\n", head) + 1
    bad, pages = [], {}
    for line in zlib.decompress(data[head:]).decode().splitlines():
        name, role, prio, uri = line.split(" ", 4)[:4]
        page, _, frag = uri.partition("#")
        if page not in pages:
            text = read(os.path.join(site, page))
            pages[page] = parse(text) if text is not None else None
        if pages[page] is None:
            bad.append("objects.inv: %s: no page %s" % (name, page))
        elif frag and frag not in pages[page].ids:
            bad.append("objects.inv: %s: no anchor %s" % (name, uri))
    return bad


def same_bytes(a, b):
    diffs = []
    for d, _, files in os.walk(a):
        for f in files:
            pa = os.path.join(d, f)
            pb = os.path.join(b, os.path.relpath(pa, a))
            if not os.path.exists(pb) or not filecmp.cmp(pa, pb, False):
                diffs.append(os.path.relpath(pa, a))
    for d, _, files in os.walk(b):
        for f in files:
            pb = os.path.join(d, f)
            if not os.path.exists(os.path.join(a, os.path.relpath(pb, b))):
                diffs.append(os.path.relpath(pb, b))
    return sorted(diffs)


def check_graph(graphdump, case, regen):
    path = os.path.join(case, "expect.graph")
    if not graphdump or not os.path.exists(path):
        return []
    r = subprocess.run([graphdump, "in"], cwd=case, capture_output=True,
                       text=True)
    if r.returncode:
        return ["graphdump failed: " + r.stderr]
    if regen:
        with open(path, "w") as f:
            f.write(r.stdout)
        return []
    want = read(path)
    if r.stdout != want:
        return ["graph differs:\n--- expected\n%s--- got\n%s" %
                (want, r.stdout)]
    return []


def check_files(site, case):
    fails = []
    for rel in read(os.path.join(case, "expect.files"), "").split():
        path = os.path.join(site, rel)
        if not os.path.isfile(path):
            fails.append("no file %s" % rel)
        elif rel.endswith(".svg"):
            import xml.etree.ElementTree as ET
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                fails.append("%s is not XML: %s" % (rel, e))
                continue
            if root.tag != "{http://www.w3.org/2000/svg}svg":
                fails.append("%s is not an SVG document" % rel)
    return fails


def run_case(quire, linkcheck, case, regen, graphdump=None):
    fails = check_graph(graphdump, case, regen)
    with tempfile.TemporaryDirectory() as tmp:
        out1 = os.path.join(tmp, "j1")
        out8 = os.path.join(tmp, "j8")
        status, diag = build(quire, case, out8, 8)
        want_status = int(read(os.path.join(case, "expect.status"), "0"))
        if status != want_status:
            fails.append("exit status %d, expected %d" %
                         (status, want_status))
        want_diag = read(os.path.join(case, "expect.diag"), "")
        if regen:
            if diag:
                with open(os.path.join(case, "expect.diag"), "w") as f:
                    f.write(diag)
            elif os.path.exists(os.path.join(case, "expect.diag")):
                os.unlink(os.path.join(case, "expect.diag"))
        elif diag != want_diag:
            fails.append("diagnostics differ:\n--- expected\n%s--- got\n%s"
                         % (want_diag, diag))
        if status > 1 or not os.path.isdir(out8):
            return fails + ["no site was built"]
        status1, diag1 = build(quire, case, out1, 1)
        if diag1 != diag:
            fails.append("-j1 and -j8 print different diagnostics")
        diffs = same_bytes(out1, out8)
        if diffs:
            fails.append("-j1 and -j8 differ in: " + ", ".join(diffs[:10]))
        r = subprocess.run([linkcheck, out8], capture_output=True,
                           text=True)
        if r.returncode:
            fails.append("link check:\n" + r.stdout)
        fails += no_script(out8)
        fails += inventory(out8)
        fails += check_files(out8, case)

        spec = read(os.path.join(case, "expect.html"), "")
        blocks = re.split(r"^== (\S+)#(\S+)\n", spec, flags=re.M)
        regen_out = []
        pages = {}
        for i in range(1, len(blocks), 3):
            page, ident, want = blocks[i], blocks[i + 1], blocks[i + 2]
            if page not in pages:
                pages[page] = parse(read(os.path.join(out8, page), ""))
            node = pages[page].ids.get(ident)
            got = canon(node) if node else "(no element with this id)"
            regen_out.append("== %s#%s\n%s\n" % (page, ident, got))
            if not regen and got != canon_html(want):
                fails.append("%s#%s differs:\n--- expected\n%s\n--- got\n%s"
                             % (page, ident, canon_html(want), got))
        if regen and regen_out:
            with open(os.path.join(case, "expect.html"), "w") as f:
                f.write("".join(regen_out))
    return fails


def main():
    quire, linkcheck, cases = sys.argv[1:4]
    only = sys.argv[4:]
    graphdump = None
    if only[:1] == ["--graphdump"]:
        graphdump = os.path.abspath(only[1])
        only = only[2:]
    regen = os.environ.get("QUIRE_REGEN") == "1"
    names = only or sorted(d for d in os.listdir(cases)
                           if os.path.isdir(os.path.join(cases, d, "in")))
    failed = 0
    for name in names:
        fails = run_case(os.path.abspath(quire), os.path.abspath(linkcheck),
                         os.path.join(cases, name), regen, graphdump)
        if fails:
            failed += 1
            print("FAIL site/%s" % name)
            for f in fails:
                print("  " + f.replace("\n", "\n  "))
        else:
            print("ok   site/%s" % name)
    print("%d of %d site cases failed" % (failed, len(names)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
