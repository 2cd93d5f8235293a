#!/usr/bin/env python3
"""Count warning categories: scripts/kernel-doc stderr files vs quire diagnostics.

CACHE_DIR holds files.txt (paths relative to the tree) and ref/PATH.rst.err
(the reference's stderr for each file); QUIRE_ERR is quire's stderr over the
same files. --files CATEGORY lists the files whose counts differ.
usage: warncats.py CACHE_DIR QUIRE_ERR [--files]"""
import re, sys, os
from collections import Counter, defaultdict
CATS = [
    (r"warning: Function parameter or member", "undescribed-param"),
    (r"warning: no structured comments found", "no-structured-comments"),
    (r"warning: This comment starts with", "not-kernel-doc"),
    (r"warning: Enum value .* not described", "undescribed-enum"),
    (r"warning: Excess function parameter", "excess-param"),
    (r"warning: Cannot understand", "bad-doc-line"),
    (r"warning: cannot understand function prototype", "bad-prototype"),
    (r"warning: Incorrect use of kernel-doc format", "bad-inline-doc"),
    (r"warning: expecting prototype for", "prototype-mismatch"),
    (r"warning: bad line", "bad-line"),
    (r"warning: Excess enum value", "excess-enum"),
    (r"error: Cannot parse struct or union", "bad-struct"),
    (r"error: Cannot parse enum", "bad-enum"),
    (r"error: Cannot parse typedef", "bad-typedef"),
    (r"warning: wrong kernel-doc identifier", "bad-identifier"),
    (r"warning: duplicate section name", "duplicate-section"),
    (r"warning: suspicious ending line", "suspicious-end"),
    (r"warning: Unrecognized tracepoint format", "bad-tracepoint"),
    (r"warning: missing initial short description", "missing-short-desc"),
    (r"warning: Variable macro arguments", "variadic-dots"),
    (r"warning: contents before sections", "contents-before-sections"),
    (r"warning: No description found for return value", "no-return-doc"),
]
cache, qerr = sys.argv[1], sys.argv[2]
files = open(os.path.join(cache, "files.txt")).read().split()
ref, refpf = Counter(), defaultdict(Counter)
other = Counter()
for f in files:
    try:
        txt = open(os.path.join(cache, "ref", f + ".rst.err"), errors="replace").read()
    except OSError:
        continue
    for line in txt.split("\n"):
        if not line.startswith(f + ":"):
            continue
        for pat, cat in CATS:
            if re.search(pat, line):
                ref[cat] += 1; refpf[f][cat] += 1; break
        else:
            other[line.split(":", 3)[-1][:60]] += 1
q, qpf = Counter(), defaultdict(Counter)
for line in open(qerr, errors="replace"):
    m = re.match(r"(.*?):\d+:\d+: (?:warning|error): .*\[-W([\w-]+)\]$", line.rstrip("\n"))
    if m:
        q[m.group(2)] += 1; qpf[m.group(1)][m.group(2)] += 1
print(f"{'category':26s} {'reference':>9s} {'quire':>7s}  diff")
for cat in sorted(set(ref) | set(q), key=lambda c: -ref[c]):
    r, g = ref[cat], q[cat]
    pct = (100.0 * (g - r) / r) if r else float("inf") if g else 0.0
    print(f"{cat:26s} {r:9d} {g:7d}  {pct:+.2f}%")
print(f"{'total':26s} {sum(ref.values()):9d} {sum(q.values()):7d}")
if other:
    print("unclassified reference lines:", sum(other.values()), other.most_common(5))
if "--files" in sys.argv:
    cat = sys.argv[sys.argv.index("--files") + 1]
    for f in files:
        if refpf[f][cat] != qpf[f][cat]:
            print(f"  {f}: ref {refpf[f][cat]} quire {qpf[f][cat]}")
