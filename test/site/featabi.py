#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""featabi.py - the reST of kernel-feat and kernel-abi, quire's against
the kernel's scripts

    featabi.py FEATABI_RST

Extracts Documentation/features, Documentation/ABI and the two scripts
from Debian's linux-source-6.1 and runs them as the kernel's Sphinx
extensions do (Documentation/sphinx/kernel_feat.py, kernel_abi.py):

    perl scripts/get_feat.pl rest --dir DIR [--arch ARCH]
    perl scripts/get_abi.pl rest --enable-lineno --dir DIR

on the real folders (the matrix of every architecture, each
architecture's table, the four ABI folders) and on made-up ones that
take the odd paths (a status of "..", a missing Kconfig, words too long
for the column; tabs, "Where:", a description that goes on after a
colon, links to other symbols and files, symbols whose names read as
Perl patterns, an empty What). quire's text (qu_site_feat_rst(), qu_site_abi_rst(), through
featabi-rst) must be the same, byte for byte. Skips (77) without the
package or perl, after the pathological files (generated, judged by the
shape of the text and by not hanging), which need neither.

Differences on purpose, which no input here meets: where two ABI symbols
would take the same label, get_abi.pl adds random letters and quire the
same letters each time; a symbol name Perl refuses as a pattern (an
unmatched '(' or '[') stops get_abi.pl and leaves quire's line unlinked;
files are read in each folder's sorted order, not the order readdir()
gives File::Find, which shows only when a feature or a symbol is
defined twice.
"""
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TOOL = os.path.abspath(sys.argv[1])
TOP = "linux-source-6.1/"
WANT = ("Documentation/features/", "Documentation/ABI/",
        "scripts/get_feat.pl", "scripts/get_abi.pl")

FEAT_MADE_UP = {
    "core/odd-one/arch-support.txt": """#
# Feature name:          odd-one
#         Kconfig:       ARCH_HAS_A_RATHER_LONG_KCONFIG_SYMBOL_NAME
#         description:   arch supports an_extraordinarily_long_word_that_does_not_fit and then some more words after it
#
    -----------------------
    |         arch |status|
    -----------------------
    |       alpha: |  ..  |
    |         x86: |  ok  |
    |        arm64: | TODO |
    -----------------------
""",
    "core/Zeta/arch-support.txt": """#
# Feature name:          Zeta
#         description:   no Kconfig line here
#
    |         x86: |  ok  |
""",
    "alpha/first/arch-support.txt": """#
# Feature name:          first
#         Kconfig:       FIRST
#         description:   a subsystem sorted first
#
    |         x86: | TODO |
    |        mips: |  ok  |
""",
}

ABI_MADE_UP = {
    "sysfs-made-up": """What:\t\t/sys/made/up/one
Date:\t\tJanuary 2023
Contact:\tNobody <nobody@example.org>
Description:\tThe first line, after a tab.
\t\tSee /sys/made/up/two, and (/sys/made/up/cpu5) for more;
\t\tDocumentation/ABI/testing/sysfs-made-up tells it all, as
\t\tDocumentation/admin-guide/abi.rst does.

\t\tAn example::

\t\t    /sys/made/up/two is not linked here

\t\tNote: a colon in the text is not a tag.
Users:\t\tsomeone
\t\tsomeone else

Where:\t\t/sys/made/up/two
What:\t\t/sys/made/up/three,
Date:\t\tFebruary 2023
Description:
\t\tTitles go:
\t\t==========
\t\tand the rest stays, /sys/made/up/one.

What:\t\t/sys/made/up/cpu[0-9]+
Description:\tA name that reads as a pattern.
""",
    "sysfs-no-what": """This file has no What line at all.
It only describes itself.
""",
    "sysfs-patterns": """Text before any tag.
What:\t\t/sys/a/one,
What:\t\t/sys/a/cpu[0-9]+
where:\t\t/sys/a/{x|y}
Date:\t\tJanuary 2023
Description:\tSee /sys/a/one and (/sys/a/cpu[0-9]+), Documentation/ABI/testing/sysfs-a
\t\tand Documentation/x/y.rst.

\t\tTitle
\t\t=====
\t\tAn example::

\t\t    /sys/a/one stays
\t\tFoo: not a tag.
Users:\t\tsomeone
\t\telse
What:
KernelVersion:\t6.1
What:\t\t/sys/a/||/b
Description:
\t\tEmpty alternatives: /sys/a/||/b links between every byte.
""",
}


def extract(dest):
    with tarfile.open(TARBALL) as t:
        for m in t:
            name = m.name[len(TOP):] if m.name.startswith(TOP) else ""
            if name.startswith(WANT) and (m.isfile() or m.isdir()):
                t.extract(m, dest)


def run(args):
    r = subprocess.run(args, capture_output=True)
    if r.returncode:
        raise SystemExit("FAIL: %s exited %d: %s" %
                         (" ".join(args), r.returncode,
                          r.stderr.decode(errors="replace")))
    return r.stdout


def compare(what, want, got):
    if want == got:
        print("ok: %s: %d lines as the kernel's script prints them"
              % (what, want.count(b"\n")))
        return 0
    wl, gl = want.split(b"\n"), got.split(b"\n")
    for i, (a, b) in enumerate(zip(wl, gl)):
        if a != b:
            print("FAIL: %s line %d:\n  kernel: %r\n  quire:  %r"
                  % (what, i + 1, a, b))
            return 1
    print("FAIL: %s: %d lines, quire %d" % (what, len(wl), len(gl)))
    return 1


def made_up(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def pathological(tmp):
    """Files no tree has, judged by the shape of the text and by not
    hanging: a megabyte line of tabs, of Documentation/ paths and of one
    symbol's mentions; thousands of symbols of one label, their names
    thousands of bytes long; 200,000 architecture rows."""
    n = 60000
    abi = os.path.join(tmp, "pathological/ABI/testing")
    feat = os.path.join(tmp, "pathological/features")
    made_up(abi, {
        "sysfs-long-lines": "What:\t\t/sys/a\nDescription:\tx" +
        "\tx" * n + "\n\t\t" + "Documentation/" * n + "a.rst" +
        " Documentation/" * n + "\n\t\t" + " /sys/a" * n +
        " (/sys/a)" * n + "\n\t\t" +
        "Documentation/ABI/testing/sysfs-a " * n + "\n",
        "sysfs-one-label": "".join(
            "What: /sys/x%s\nDescription: see /sys/x%s\n\n" %
            ("-" * i, "-" * i) for i in range(1, 2001)),
    })
    made_up(feat, {"core/wide/arch-support.txt":
                   "# Feature name: wide\n# Kconfig: W\n"
                   "# description: d\n" +
                   "".join("| a%d: | ok |\n" % i for i in range(200000))})
    fails = 0
    for args, head in ((["abi", abi], b".. LINENO "),
                       (["feat", feat], b"===="),
                       (["feat", feat, "a7"], b"====")):
        try:
            r = subprocess.run([TOOL] + args, capture_output=True,
                               timeout=120)
        except subprocess.TimeoutExpired:
            print("FAIL: featabi-rst %s hangs" % " ".join(args))
            fails += 1
            continue
        if r.returncode or not r.stdout.startswith(head):
            print("FAIL: featabi-rst %s: exit %d" %
                  (" ".join(args), r.returncode))
            fails += 1
        else:
            print("ok: pathological %s: %d bytes" % (args[0], len(r.stdout)))
    return fails


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if pathological(tmp):
            return 1
    if not os.path.exists(TARBALL):
        print("skip: %s not found (apt install linux-source-6.1)" % TARBALL)
        return 77
    perl = shutil.which("perl")
    if not perl:
        print("skip: no perl to run the kernel's scripts")
        return 77
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        extract(tmp)
        src = os.path.join(tmp, TOP)
        feat_pl = os.path.join(src, "scripts/get_feat.pl")
        abi_pl = os.path.join(src, "scripts/get_abi.pl")
        features = os.path.join(src, "Documentation/features")
        feats = [features]
        mine = os.path.join(tmp, "made-up/features")
        shutil.copytree(features, mine)
        made_up(mine, FEAT_MADE_UP)
        feats.append(mine)
        for d in feats:
            archs = sorted({line.split(":")[0].strip(" |")
                            for dp, _, fs in os.walk(d) for f in fs
                            if f == "arch-support.txt" and dp != d
                            for line in open(os.path.join(dp, f))
                            if line.strip().startswith("|") and ":" in line})
            for arch in [None] + archs:
                args = ["rest", "--dir", d] + (["--arch", arch]
                                               if arch else [])
                fails += compare("get_feat.pl %s" % " ".join(args),
                                 run([perl, feat_pl] + args),
                                 run([TOOL, "feat", d] +
                                     ([arch] if arch else [])))
        dirs = [os.path.join(src, "Documentation/ABI", d)
                for d in ("stable", "obsolete", "removed", "testing")]
        mine = os.path.join(tmp, "made-up/Documentation/ABI/testing")
        made_up(mine, ABI_MADE_UP)
        dirs.append(mine)
        for d in dirs:
            fails += compare("get_abi.pl rest --enable-lineno --dir %s" % d,
                             run([perl, abi_pl, "rest", "--enable-lineno",
                                  "--dir", d]),
                             run([TOOL, "abi", d]))
    return 1 if fails else 0


sys.exit(main())
