#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""genrepo.py - a random history through `git fast-import`, fast

    genrepo.py DIR COMMITS FILES [SEED] [MERGE_EVERY]

Makes DIR a repository whose `main` has COMMITS commits touching FILES
files (in folders of 100), with branches merged back every MERGE_EVERY
commits: some merges take files from the side branch, some change files
themselves, so a merge can be the same as either parent or as neither.
Committer dates step one second per commit; the same arguments make the
same repository.
"""
import os
import random
import subprocess
import sys


def path_of(i):
    return "d%03d/f%05d.c" % (i // 100, i)


def generate(dest, commits, files, seed=1, merge_every=0):
    rnd = random.Random(seed)
    os.makedirs(dest, exist_ok=True)
    subprocess.run(["git", "init", "-q", "-b", "main", dest], check=True)
    fi = subprocess.Popen(["git", "-C", dest, "fast-import", "--quiet", "--done"],
                          stdin=subprocess.PIPE)
    out = []
    w = out.append
    mark = 0
    t0 = 1_600_000_000
    # content of every file at each branch head: only versions, as ints
    main = {}
    side = None
    side_mark = None
    version = 0

    def blob_line(p, v):
        data = ("/* %s v%d */\n" % (p, v)).encode()
        return b"M 100644 inline %s\ndata %d\n%s\n" % (p.encode(), len(data), data)

    def commit(ref, parent, merge, changes, t):
        nonlocal mark
        mark += 1
        msg = b"c%d\n" % mark
        w(b"commit refs/heads/%s\nmark :%d\n" % (ref.encode(), mark))
        w(b"author A <a@example.org> %d +0000\n" % t)
        w(b"committer C <c@example.org> %d +0000\n" % t)
        w(b"data %d\n%s" % (len(msg), msg))
        if parent:
            w(b"from :%d\n" % parent)
        if merge:
            w(b"merge :%d\n" % merge)
        for p, v in changes:
            w(blob_line(p, v))
        return mark

    head = None
    t = t0
    for n in range(commits):
        t += 1
        if n == 0:
            changes = [(path_of(i), 0) for i in range(files)]
            for p, v in changes:
                main[p] = v
            head = commit("main", None, None, changes, t)
            continue
        if merge_every and side is None and rnd.random() < 1.0 / merge_every:
            side = dict(main)
            side_mark = head
        k = rnd.choice((1, 1, 1, 2, 3, 5))
        changes = []
        for _ in range(k):
            version += 1
            changes.append((path_of(rnd.randrange(files)), version))
        if side is not None and rnd.random() < 0.5:
            for p, v in changes:
                side[p] = v
            side_mark = commit("side", side_mark, None, changes, t)
            if rnd.random() < 0.2:
                # merge the side branch into main
                mchanges = []
                for p, v in side.items():
                    if main[p] != v and rnd.random() < 0.6:
                        mchanges.append((p, v))       # take the side's
                if rnd.random() < 0.5:
                    version += 1
                    mchanges.append((path_of(rnd.randrange(files)), version))
                t += 1
                for p, v in mchanges:
                    main[p] = v
                head = commit("main", head, side_mark, mchanges, t)
                side = None
            continue
        for p, v in changes:
            main[p] = v
        head = commit("main", head, None, changes, t)
        if len(out) > 4096:
            fi.stdin.write(b"".join(out))
            out.clear()
    w(b"done\n")
    fi.stdin.write(b"".join(out))
    fi.stdin.close()
    if fi.wait() != 0:
        raise SystemExit("fast-import failed")
    subprocess.run(["git", "-C", dest, "symbolic-ref", "HEAD", "refs/heads/main"],
                   check=True)


if __name__ == "__main__":
    a = sys.argv
    generate(a[1], int(a[2]), int(a[3]), int(a[4]) if len(a) > 4 else 1,
             int(a[5]) if len(a) > 5 else 0)
