#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""headers.py - the reST of kernel-include's headers, quire's against
the kernel's parse-headers.pl

    headers.py HEADERS_RST SITE_CORPUS

Extracts Documentation/sphinx/parse-headers.pl, the media Makefile and
its exceptions files and the uAPI headers from Debian's linux-source-6.1,
and runs the script as the Makefile does:

    perl parse-headers.pl HEADER OUT EXCEPTIONS

for every rule of Documentation/userspace-api/media/Makefile (the eight
headers with their exceptions files), for every sixteenth header of
include/uapi and include/linux without an exceptions file, and for
made-up headers and exceptions files that take the odd paths (comments
across lines, tabs, one-line enums, typedefs over several lines, names
used twice in a row, DEPRECATED, ignore and replace of every kind, a rule
naming a symbol the header lacks, odd spacing). quire's text
(qu_site_headers_rst(), through headers-rst) must be the same, byte for
byte; where the script dies (an unknown keyword, a replace of an unknown
kind), headers-rst must fail too. The fuzz-site corpus's headers-*
inputs (a header after the first byte, the bytes before a NUL as its
exceptions file) are compared the same way. Skips (77) without the package or perl,
after the pathological headers (generated, judged by the shape of the
text and by not hanging), which need neither.

Differences on purpose, which no input here meets: a typedef over several
lines whose name is not a C word ("} *foo_p;" makes the name "*foo_p")
is never linked, where the script reads the name as a regex; the script
links names in hash order, which shows only when one link's text holds
another name (quire links as if the tables ran in the order of the text);
"struct [name" at a line's end makes the script die on the regex it
builds ("Unmatched ["), and quire leaves the name unlinked.
"""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TOOL = os.path.abspath(sys.argv[1])
CORPUS = os.path.abspath(sys.argv[2])
TOP = "linux-source-6.1/"
MEDIA = "Documentation/userspace-api/media/"
WANT = ("Documentation/sphinx/parse-headers.pl", MEDIA + "Makefile",
        "include/uapi/", "include/linux/")

MADE_UP_HEADER = """/* SPDX-License-Identifier: made up */
/*
 * A comment over lines, naming FOO_ONE and struct made_up.
 */
#ifndef MADE_UP_H
#define MADE_UP_H

#define FOO_ONE\t1 /* one */ /* two */
#define FOO_TWO 2 /* open
   still open */ #define NOT_A_DEFINE 3
#define MADE_IOCTL\t_IOWR('V', 1, struct made_up)
#define MADE_IOCTL_DEP _IO('V', 2) /* DEPRECATED */
#  define SPACED_DEFINE   (FOO_ONE FOO_ONE FOO_ONE)
#define X 1

enum made_enum {
\tME_FIRST = FOO_ONE,
\tME_SECOND,\tME_THIRD,
\tME_LAST
};

enum one_line { OL_A, OL_B };
\tSTRAY_SYMBOL,
};
enum after_one_line
{
\tAO_A
};

typedef enum tagged_enum {
\tTE_A,
} tagged_enum_t;

typedef  int\tspaced_t;
typedef unsigned long long  ulong_t;
typedef int single_space_t;
typedef struct made_up {
\t__u32 a;\t/* FOO_ONE, ME_FIRST */
\tstruct { int x; } inner;
\tenum made_enum e;
\tspaced_t s, *p;
\tchar c[FOO_TWO];
} made_up_t;

typedef struct{int a;} packed_t ;

struct made_up_two
{
\tstruct made_up m;\t// MADE_IOCTL(struct made_up)
\tulong_t\tu;
};

/* end */
#endif
"""

MADE_UP_EXCEPTIONS = """# comments and blank lines are skipped

   # an indented comment
ignore define MADE_UP_H
ignore ioctl MADE_IOCTL_DEP
ignore symbol ME_THIRD
ignore enum one_line
ignore struct made_up_two
ignore typedef packed_t
ignore define NOT_IN_THE_HEADER
replace define FOO_TWO :c:type:`v4l2_foo`
replace ioctl MADE_IOCTL :ref:`made-ioctl`
replace symbol ME_FIRST :c:func:`me_first`
replace symbol ME_SECOND target-without-role
replace typedef ulong_t :c:macro:`ULONG`
replace enum made_enum :c:data:`made_data`
replace struct made_up x-:ref:`inside`-y
replace\tdefine\tX\t  :ref:`x`
replace define NOT_IN_THE_HEADER :ref:`nowhere`
"""

DYING = {
    "unknown keyword": "ignore define FOO_ONE\nforget define FOO_TWO\n",
    "unknown kind": "replace function FOO_ONE :ref:`one`\n",
    "short replace": "replace define FOO_ONE\n",
    "ignore without a name": "ignore define\n",
}


def extract(dest):
    with tarfile.open(TARBALL) as t:
        for m in t:
            name = m.name[len(TOP):] if m.name.startswith(TOP) else ""
            if (name.startswith(WANT) or
                    (name.startswith(MEDIA) and
                     name.endswith(".exceptions"))) and m.isfile():
                t.extract(m, dest)


def run(args, want_fail=False):
    r = subprocess.run(args, capture_output=True, timeout=300)
    if bool(r.returncode) != want_fail:
        raise SystemExit("FAIL: %s exited %d: %s" %
                         (" ".join(args), r.returncode,
                          r.stderr.decode(errors="replace")))
    return r


def compare(what, want, got):
    if want == got:
        return 0
    wl, gl = want.split(b"\n"), got.split(b"\n")
    for i, (a, b) in enumerate(zip(wl, gl)):
        if a != b:
            print("FAIL: %s line %d:\n  kernel: %r\n  quire:  %r"
                  % (what, i + 1, a, b))
            return 1
    print("FAIL: %s: %d lines, quire %d" % (what, len(wl), len(gl)))
    return 1


def perl_rst(perl, script, tmp, header, exc=None):
    out = os.path.join(tmp, "out.rst")
    run([perl, script, header, out] + ([exc] if exc else []))
    with open(out, "rb") as f:
        return f.read()


def rules(makefile, src):
    """The Makefile's $(BUILDDIR)/NAME rules: (name, header, exceptions)."""
    text = open(makefile).read()
    var = dict(re.findall(r"^(\w+)\s*:?=\s*(.*)$", text, re.M))
    var["srctree"] = src

    def expand(s):
        return re.sub(r"\$[({](\w+)[)}]",
                      lambda m: expand(var.get(m.group(1), "")), s)
    for m in re.finditer(r"^\$\(BUILDDIR\)/(\S+):\s*(.*)$", text, re.M):
        pre = expand(m.group(2)).split()
        yield m.group(1), pre[0], pre[2]


def pathological(tmp):
    """Headers no tree has, judged by the shape of the text and by not
    hanging: a megabyte line, 100,000 defines all used on one line,
    thousands of unclosed typedefs and comments."""
    n = 100000
    cases = {
        "long-line.h": "#define A_B 1\n" + "A_B " * 250000 + "\n",
        "defines.h": "".join("#define D_%d %d\n" % (i, i)
                             for i in range(n)) +
        " ".join("D_%d" % i for i in range(n)) + "\n",
        "typedefs.h": "typedef struct a{x " * 50000 + "\n" +
        "typedef enum b{ y;" * 50000 + "}" + "x" * 100000 + "\n",
        "comments.h": "/* /* */ */ " * 100000 + "\n" + "\t" * 100000 +
        "\n" * 100000 + "enum e {\n" + "E_X,\n" * 50000,
    }
    fails = 0
    for name, text in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        try:
            r = subprocess.run([TOOL, path], capture_output=True,
                               timeout=120)
        except subprocess.TimeoutExpired:
            print("FAIL: headers-rst %s hangs" % name)
            fails += 1
            continue
        if r.returncode or not r.stdout.startswith(
                b".. -*- coding: utf-8; mode: rst -*-\n\n" +
                name.encode() + b"\n"):
            print("FAIL: headers-rst %s: exit %d" % (name, r.returncode))
            fails += 1
        else:
            print("ok: pathological %s: %d bytes" % (name, len(r.stdout)))
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
        print("skip: no perl to run the kernel's parse-headers.pl")
        return 77
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        extract(tmp)
        src = os.path.join(tmp, TOP)
        script = os.path.join(src, "Documentation/sphinx/parse-headers.pl")
        media = list(rules(os.path.join(src, MEDIA + "Makefile"), src))
        if len(media) < 8:
            print("FAIL: %d rules in the media Makefile" % len(media))
            return 1
        for name, header, exc in media:
            fails += compare("parse-headers.pl %s" % name,
                             perl_rst(perl, script, tmp, header, exc),
                             run([TOOL, header, exc]).stdout)
        print("ok: %d media headers as the Makefile makes them"
              % len(media))
        headers = sorted(os.path.join(dp, f)
                         for d in ("include/uapi", "include/linux")
                         for dp, _, fs in os.walk(os.path.join(src, d))
                         for f in fs if f.endswith(".h"))[3::16]
        for h in headers:
            fails += compare("parse-headers.pl %s" % h[len(src):],
                             perl_rst(perl, script, tmp, h),
                             run([TOOL, h]).stdout)
        print("ok: %d headers without exceptions" % len(headers))
        mine = os.path.join(tmp, "made-up.h")
        with open(mine, "w") as f:
            f.write(MADE_UP_HEADER)
        exc = os.path.join(tmp, "made-up.h.rst.exceptions")
        with open(exc, "w") as f:
            f.write(MADE_UP_EXCEPTIONS)
        for args in ([mine], [mine, exc]):
            fails += compare("parse-headers.pl %s" % " ".join(args),
                             perl_rst(perl, script, tmp, *args),
                             run([TOOL] + args).stdout)
        print("ok: the made-up header, with and without exceptions")
        n = 0
        for name in sorted(os.listdir(CORPUS)):
            if not name.startswith("headers-"):
                continue
            data = open(os.path.join(CORPUS, name), "rb").read()[1:]
            nul = data.find(b"\0")
            for hdr, ex in [(data, None)] + (
                    [(data[nul + 1:], data[:nul])] if nul >= 0 else []):
                with open(mine, "wb") as f:
                    f.write(hdr)
                args = [mine]
                if ex is not None:
                    with open(exc, "wb") as f:
                        f.write(ex)
                    args.append(exc)
                p = subprocess.run([perl, script, mine,
                                    os.path.join(tmp, "x.rst")] + args[1:],
                                   capture_output=True)
                if p.returncode:
                    continue
                with open(os.path.join(tmp, "x.rst"), "rb") as f:
                    want = f.read()
                fails += compare("corpus input %s" % name,
                                 want, run([TOOL] + args).stdout)
                n += 1
        print("ok: %d fuzz corpus headers" % n)
        for what, text in DYING.items():
            with open(exc, "w") as f:
                f.write(text)
            p = subprocess.run([perl, script, mine,
                                os.path.join(tmp, "x.rst"), exc],
                               capture_output=True)
            q = run([TOOL, mine, exc], want_fail=True)
            if not p.returncode or b"Can't parse" not in p.stderr:
                print("FAIL: %s: parse-headers.pl did not die" % what)
                fails += 1
            elif q.stdout or b"as parse-headers.pl cannot" not in q.stderr:
                print("FAIL: %s: quire says %r" % (what, q.stderr))
                fails += 1
            else:
                print("ok: %s: both stop" % what)
    return 1 if fails else 0


sys.exit(main())
