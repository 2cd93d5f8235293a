#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile each stage's public header alone, twice over, with the strict
warnings as errors: it must include what it uses and have a working
include guard.

usage: headers.py SOURCE_ROOT BUILD_ROOT CC [CC-ARGS...]
"""
import os
import subprocess
import sys
import tempfile

FLAGS = ['-std=gnu11', '-fsyntax-only', '-Wall', '-Wextra', '-Werror',
         '-Wshadow', '-Wstrict-prototypes', '-Wmissing-prototypes',
         '-D_GNU_SOURCE']
PKGS = ['libcmark-gfm', 'libxml-2.0', 'libgit2', 'yaml-0.1']


def pkg_cflags():
    try:
        out = subprocess.run(['pkg-config', '--cflags'] + PKGS,
                             stdout=subprocess.PIPE, check=True).stdout
        return out.decode().split()
    except (OSError, subprocess.CalledProcessError):
        return []


def main():
    src, build, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
    lib = os.path.join(src, 'lib')
    extra = pkg_cflags()
    failed = 0
    headers = []
    for stage in sorted(os.listdir(lib)):
        h = os.path.join(lib, stage, stage + '.h')
        if os.path.exists(h):
            headers.append('%s/%s.h' % (stage, stage))
    with tempfile.TemporaryDirectory() as tmp:
        for h in headers:
            c = os.path.join(tmp, 'alone.c')
            with open(c, 'w') as f:
                f.write('#include "%s"\n#include "%s"\n' % (h, h))
            p = subprocess.run(cc + FLAGS + ['-I', lib, '-I', build] +
                               extra + [c], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            if p.returncode:
                failed += 1
                print('FAIL %s\n%s' % (h, p.stdout.decode()))
            else:
                print('ok %s' % h)
    print('%d headers, %d failed' % (len(headers), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
