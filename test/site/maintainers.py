#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""maintainers.py - the reST of MAINTAINERS, quire's against the kernel's

    maintainers.py MAINTAINERS_RST

Extracts MAINTAINERS and Documentation/sphinx/maintainers_include.py from
Debian's linux-source-6.1 and runs the extension's own conversion
(MaintainersInclude.parse_maintainers(), with docutils' string2lines() as
it hands the lines to the parser) on the real file and on made-up ones
that take the odd paths (escapes, field letters, links to
Documentation/, a last subsystem without a blank line); quire's lines
(qu_site_maintainers_rst(), through maintainers-rst) must be the same.
Skips (77) without the package or docutils.
"""
import os
import subprocess
import sys
import tarfile
import tempfile

TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TOOL = os.path.abspath(sys.argv[1])

MADE_UP = """Intro text \\\\ with a backslash, and Documentation/a/b.rst linked.

Descriptions of section entries and preferred order
---------------------------------------------------

\tM: *Mail* patches to: FullName <address@domain>
\tR: Designated *reviewer*: FullName <address@domain>
\tL: *Mailing list* that is relevant to this area
\tS: *Status*, one of the following:
\tF: *Files* and directories wildcard patterns
\tX: *Excluded* files and directories that are NOT maintained
\tN: Files and directories *Regex* patterns.
\tK: *Content regex* (perl extended) pattern match
\tT: *SCM* tree type and location.
\tW: *Web-page* with status/info
\tQ: ** no name here, then *Patchwork* web based patch tracking system site

Maintainers List
----------------

.. note:: first

3C59X  NETWORK   DRIVER
M:\tSteffen Klassert <klassert@kernel.org>
M:\tAnother One <one@example.org>
L:\tnetdev@vger.kernel.org
S:\tOdd Fixes
F:\tDocumentation/networking/device_drivers/3com/vortex.rst
F:\tdrivers/net/ethernet/3com/3c59x.c
X:\tdrivers/net/*.c
Z:\tunknown letter

ACPI
R:\tx <x@y> Documentation/a.rst,Documentation/b.rst
K:\t\\bacpi\\b
T:\tgit git://example.org/x.git
ÉCLAIR DRIVER
F:\tdrivers/eclair/"""


def kernel_lines(src, path):
    sys.path.insert(0, os.path.join(src, "Documentation", "sphinx"))
    from docutils import statemachine
    import maintainers_include as mi

    got = []

    class SM:
        def insert_input(self, lines, source):
            got.extend(lines)

    class Me:
        state_machine = SM()

    mi.MaintainersInclude.parse_maintainers(Me(), path)
    return got


def quire_lines(path):
    from docutils import statemachine
    out = subprocess.run([TOOL, path], capture_output=True, check=True).stdout
    return statemachine.string2lines(out.decode("utf-8").rstrip("\n"))


def main():
    if not os.path.exists(TARBALL):
        print("skip: %s not found (apt install linux-source-6.1)" % TARBALL)
        return 77
    try:
        import docutils  # noqa: F401
    except ImportError:
        # Debian's python3 has it where another python3 is first in PATH
        if sys.executable != "/usr/bin/python3" and \
                os.path.exists("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        print("skip: no docutils (apt install python3-docutils)")
        return 77
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(TARBALL) as t:
            for name in ("MAINTAINERS",
                         "Documentation/sphinx/maintainers_include.py"):
                t.extract("linux-source-6.1/" + name, tmp)
        src = os.path.join(tmp, "linux-source-6.1")
        made = os.path.join(tmp, "MADE-UP")
        with open(made, "w") as f:
            f.write(MADE_UP)
        for path in (os.path.join(src, "MAINTAINERS"), made):
            want, got = kernel_lines(src, path), quire_lines(path)
            if want == got:
                print("ok: %s: %d lines as the kernel's extension makes them"
                      % (os.path.basename(path), len(want)))
                continue
            fails += 1
            for i, (a, b) in enumerate(zip(want, got)):
                if a != b:
                    print("FAIL: %s line %d:\n  kernel: %r\n  quire:  %r"
                          % (path, i + 1, a, b))
                    break
            else:
                print("FAIL: %s: %d lines, quire %d" %
                      (path, len(want), len(got)))
    return 1 if fails else 0


sys.exit(main())
