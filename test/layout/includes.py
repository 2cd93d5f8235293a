#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check every #include of lib/ and cmd/ against the stage order.

DESIGN.md's pipeline runs one way: a stage may include the public header
(lib/<stage>/<stage>.h) or an X-macro table (.def) of a stage before it,
and its own files; never a later stage's header, never another stage's
_int.h. The table below is
that order written down; a new stage gets a row here.

usage: includes.py SOURCE_ROOT
"""
import os
import re
import sys

# stage -> the stages whose public headers it may include
EARLIER = {
    'util': [],
    'source': ['util'],
    'kdoc': ['util', 'source'],
    'git': ['util'],
    'site': ['util', 'source', 'kdoc', 'git'],
    'rst': ['util', 'site'],
    'graph': ['util', 'source', 'kdoc', 'git', 'site', 'rst'],
    'markdown': ['util', 'source', 'kdoc', 'git', 'site', 'rst', 'graph'],
    'render': ['util', 'source', 'kdoc', 'git', 'site', 'rst', 'graph',
               'markdown'],
    'search': ['util', 'source', 'kdoc', 'git', 'site', 'rst', 'graph',
               'markdown', 'render'],
    'man': ['util', 'source', 'kdoc', 'git'],
    'cover': ['util', 'source', 'kdoc'],
    'build': ['util', 'source', 'kdoc', 'git', 'site', 'rst', 'graph',
              'markdown', 'render', 'search', 'man', 'cover'],
    'serve': ['util', 'source', 'kdoc', 'git', 'site', 'rst', 'graph',
              'markdown', 'render', 'search', 'man', 'cover', 'build'],
}
EARLIER['cmd'] = list(EARLIER)

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def check_file(root, stage, path, problems):
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    here = os.path.dirname(path)
    for m in INCLUDE.finditer(text):
        inc = m.group(1)
        line = text.count('\n', 0, m.start()) + 1
        where = '%s:%d' % (os.path.relpath(path, root), line)
        if '/' not in inc:
            # A file of the same folder (foo_int.h, rows.def), or the
            # build's configuration header.
            if inc == 'qu_config.h' or os.path.exists(os.path.join(here, inc)):
                continue
            problems.append('%s: "%s" is not in %s' %
                            (where, inc, os.path.relpath(here, root)))
            continue
        other, name = inc.split('/', 1)
        if other == stage:
            continue
        if other not in EARLIER:
            problems.append('%s: "%s" names no stage' % (where, inc))
        elif name != other + '.h' and not name.endswith('.def'):
            problems.append('%s: "%s" is not %s\'s public header' %
                            (where, inc, other))
        elif other not in EARLIER[stage]:
            problems.append('%s: stage %s may not include %s (a later or '
                            'unrelated stage)' % (where, stage, inc))


def main():
    root = sys.argv[1]
    problems = []
    nfiles = 0
    for stage in sorted(os.listdir(os.path.join(root, 'lib'))):
        d = os.path.join(root, 'lib', stage)
        if not os.path.isdir(d):
            continue
        if stage not in EARLIER:
            problems.append('lib/%s: unknown stage; add it to the table '
                            'in test/layout/includes.py' % stage)
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith(('.c', '.h')):
                nfiles += 1
                check_file(root, stage, os.path.join(d, name), problems)
    cmd = os.path.join(root, 'cmd', 'quire')
    for name in sorted(os.listdir(cmd)):
        if name.endswith(('.c', '.h')):
            nfiles += 1
            check_file(root, 'cmd', os.path.join(cmd, name), problems)
    for p in problems:
        print(p)
    print('%d files, %d bad includes' % (nfiles, len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
