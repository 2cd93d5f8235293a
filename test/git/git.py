#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""git.py - lib/git against git itself, on repositories made here

    git.py GITDUMP

Builds repositories in a temporary folder (tags light and annotated,
merges, a rename, links good and bad, a submodule, a mode change, a
random history with many merges, a bare clone, a shallow clone) and
checks every answer of gitdump against the git command line: the files
of a revision (`git ls-tree`), their bytes (`git show REV:PATH`), the
version (`git describe --tags --always`), and when each file last
changed (`git log -1 --format=%ct:%H [--first-parent] -- PATH`). Then
forge URLs over a table of remotes.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genrepo  # noqa: E402

DUMP = sys.argv[1]
failures = 0
checks = 0
ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME="/nonexistent",
           GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org",
           GIT_COMMITTER_NAME="C", GIT_COMMITTER_EMAIL="c@example.org")
clock = [1_700_000_000]


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL:", what)


def git(repo, *args, inp=None, ok=True):
    env = dict(ENV)
    clock[0] += 10
    env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = "%d +0000" % clock[0]
    r = subprocess.run(["git", "-C", repo] + list(args), env=env, input=inp,
                       capture_output=True)
    if ok and r.returncode != 0:
        raise SystemExit("git %s: %s" % (" ".join(args), r.stderr.decode()))
    return r.stdout.decode(errors="replace")


def dump(*args, code=0):
    r = subprocess.run([DUMP] + list(args), capture_output=True)
    check(r.returncode == code, "gitdump %s: exit %d, not %d (%s)" %
          (" ".join(args), r.returncode, code, r.stderr.decode().strip()))
    return r.stdout, r.stderr.decode()


def write(repo, path, text):
    full = os.path.join(repo, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def make_small(d):
    """The hand-made repository: every case by name."""
    r = os.path.join(d, "small")
    git(d, "init", "-q", "-b", "main", r)
    write(r, "README.md", "# small\n")
    write(r, "src/a.c", "int a;\n")
    write(r, "src/b.c", "int b;\n")
    write(r, "docs/index.md", "# docs\n")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "one")
    git(r, "tag", "v0.1")                      # light
    write(r, "src/a.c", "int a = 1;\n")
    os.symlink("../src/a.c", os.path.join(r, "docs/a-link.c"))
    os.symlink("missing.c", os.path.join(r, "docs/dead-link.c"))
    os.symlink("../../outside", os.path.join(r, "docs/out-link.c"))
    os.symlink("../src", os.path.join(r, "docs/dir-link"))
    os.symlink("loop2", os.path.join(r, "docs/loop1"))
    os.symlink("loop1", os.path.join(r, "docs/loop2"))
    os.symlink("a-link.c", os.path.join(r, "docs/link-to-link.c"))
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "links")
    git(r, "tag", "-a", "-m", "release 1.0", "v1.0")   # annotated
    # a submodule entry (a gitlink) without any .gitmodules fetchable
    head = git(r, "rev-parse", "HEAD").strip()
    git(r, "update-index", "--add", "--cacheinfo", "160000,%s,vendor/sub" % head)
    git(r, "commit", "-q", "-m", "submodule")
    # a side branch, merged with a conflict resolved by hand
    git(r, "checkout", "-q", "-b", "side")
    write(r, "src/b.c", "int b = 2;\n")
    write(r, "src/side.c", "int side;\n")
    git(r, "commit", "-q", "-am", "side b")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "side file")
    git(r, "checkout", "-q", "main")
    write(r, "src/b.c", "int b = 3;\n")
    write(r, "README.md", "# small, main\n")
    git(r, "commit", "-q", "-am", "main b")
    git(r, "merge", "-q", "side", "-m", "merge side", ok=False)
    write(r, "src/b.c", "int b = 23;\n")       # neither parent's
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "merge side")
    # a merge the same as its first parent (-s ours)
    git(r, "checkout", "-q", "-b", "other", "HEAD~1")
    write(r, "src/other.c", "int other;\n")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "other")
    git(r, "checkout", "-q", "main")
    git(r, "merge", "-q", "-s", "ours", "other", "-m", "merge other (ours)")
    # a rename, a mode change, a delete and re-add
    git(r, "mv", "src/a.c", "src/renamed.c")
    git(r, "commit", "-q", "-m", "rename")
    os.chmod(os.path.join(r, "src/side.c"), 0o755)
    git(r, "commit", "-q", "-am", "mode")
    git(r, "rm", "-q", "docs/index.md")
    git(r, "commit", "-q", "-m", "delete")
    write(r, "docs/index.md", "# docs\n")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "re-add")
    git(r, "tag", "v1.1")
    write(r, "README.md", "# small, after\n")
    git(r, "commit", "-q", "-am", "after")
    # bytes git keeps as they are: a NUL, no newline at the end
    with open(os.path.join(r, "bin.dat"), "wb") as f:
        f.write(b"\x00\x01\xff no newline")
    git(r, "add", ".")
    git(r, "commit", "-q", "-m", "binary")
    return r


def expected_ls(repo, rev, folder=None):
    """git ls-tree, without submodules; links resolved as git would."""
    args = ["ls-tree", "-r", "--full-tree", rev]
    if folder:
        args.append(folder)
    rows = []
    for line in git(repo, *args).splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, oid = meta.split()
        if kind == "commit":
            continue
        rows.append((mode, oid, path))
    return rows


def resolve_link(repo, rev, path, hops=0):
    """Where a link leads in the tree, or None (nowhere)."""
    if hops > 16:
        return None
    out = git(repo, "ls-tree", "--full-tree", rev, "--", path)
    if not out:
        return None
    mode, kind, oid = out.split("\t")[0].split()
    if kind != "blob":
        return None
    if mode != "120000":
        return path
    target = git(repo, "cat-file", "blob", oid)
    parts = path.split("/")[:-1]
    if target.startswith("/"):
        return None
    for p in target.split("/"):
        if p in ("", "."):
            continue
        if p == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(p)
    return resolve_link(repo, rev, "/".join(parts), hops + 1) if parts else None


def check_ls_cat(repo, rev, folder=None, label=""):
    out, _ = dump("ls", repo, rev, *([folder] if folder else []))
    got = []
    for line in out.decode().splitlines():
        mode, oid, rest = line.split(" ", 2)
        path, _, target = rest.partition(" -> ")
        got.append((mode, oid, path, target or None))
    want = []
    for mode, oid, path in expected_ls(repo, rev, folder):
        target = None
        if mode == "120000":
            target = resolve_link(repo, rev, path)
            if target is None:
                continue
        want.append((mode, oid, path, target))
    want.sort(key=lambda r: r[2].encode())
    check(got == want, "%s ls %s %s:\n got %s\nwant %s" % (label, rev, folder, got, want))
    for mode, oid, path, target in got:
        data, _ = dump("cat", repo, rev, path)
        ref = target or path
        want_bytes = subprocess.run(["git", "-C", repo, "show", "%s:%s" % (rev, ref)],
                                    capture_output=True).stdout
        check(data == want_bytes, "%s cat %s %s" % (label, rev, path))
    return got


def check_last(repo, rev, mode, label="", paths=None):
    out, _ = dump("last", repo, rev, mode, *(paths or []))
    got = {}
    for line in out.decode().splitlines():
        t, c, p = line.split(" ", 2)
        got[p] = (int(t), c)
    if paths is None:
        paths = [r[2] for r in expected_ls(repo, rev)]
        check(sorted(got) == sorted(paths), "%s last: the paths of %s" % (label, rev))
    flags = ["--first-parent"] if mode == "first" else []
    for p in paths:
        line = git(repo, "log", "-1", "--format=%ct %H", *flags, rev, "--", p).strip()
        want = (int(line.split()[0]), line.split()[1]) if line else (0, "-")
        check(got.get(p) == want, "%s last %s %s %s: got %s, want %s" %
              (label, mode, rev, p, got.get(p), want))
    return got


def packs_say(repo):
    """gitdump packs: (packs, objects packed, read, loose, differ)."""
    out, _ = dump("packs", repo, "HEAD")
    n = [int(w) for w in out.decode().split() if w.isdigit()]
    check(len(n) == 5, "gitdump packs says: %s" % out)
    return n


def check_packs(d):
    """lib/git's own pack reader (lib/git/pack.c) against libgit2's, on
    packs with long delta chains, offset deltas and reference deltas,
    64-bit offsets, a blob too big to cache, and damage."""
    repo = os.path.join(d, "deltas")
    git(d, "init", "-q", "-b", "main", repo)
    lines = ["line %d of a file that grows and changes\n" % i for i in range(400)]
    for v in range(60):
        lines[(v * 37) % len(lines)] = "changed in version %d\n" % v
        lines.insert((v * 11) % len(lines), "added in version %d\n" % v)
        for name in ("a.c", "b.c", "sub/c.h"):
            write(repo, name, "/* %s */\n" % name + "".join(lines))
        if v % 10 == 0:
            # over the cache's 4 MB: read, never kept
            write(repo, "big.txt", "".join(lines) * (1 + (5 << 20) // len("".join(lines))))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "version %d" % v)
        if v % 20 == 0:
            git(repo, "tag", "v%d" % v)
    for kind, config in (("offset deltas", "true"), ("reference deltas", "false")):
        git(repo, "-c", "repack.useDeltaBaseOffset=" + config, "repack", "-adfq",
            "--depth=50", "--window=50")
        packs, packed, read, loose, differ = packs_say(repo)
        check(packs == 1 and packed == read and loose == 0 and differ == 0,
              "%s: one pack, every object read alike: %s" %
              (kind, (packs, packed, read, loose, differ)))
        chains = git(repo, "verify-pack", "-v",
                     *[os.path.join(repo, ".git/objects/pack", f)
                       for f in os.listdir(os.path.join(repo, ".git/objects/pack"))
                       if f.endswith(".idx")])
        check("chain length = 30" in chains or "chain length = 40" in chains,
              "%s: the pack has long delta chains" % kind)
        for rev in ("HEAD", "v20", "v40", "HEAD~7"):
            check_ls_cat(repo, rev, label=kind)
    # 64-bit offsets for every object past the first 64 bytes
    pack_dir = os.path.join(repo, ".git/objects/pack")
    pack = [f for f in os.listdir(pack_dir) if f.endswith(".pack")][0]
    os.remove(os.path.join(pack_dir, pack[:-5] + ".idx"))
    git(repo, "index-pack", "--index-version=2,64", os.path.join(pack_dir, pack))
    packs, packed, read, loose, differ = packs_say(repo)
    check(packs == 1 and packed == read and differ == 0,
          "64-bit offsets: every object read alike")
    check_ls_cat(repo, "v40", label="64-bit offsets")
    # loose objects beside the pack are libgit2's
    write(repo, "new.c", "new\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "loose")
    packs, packed, read, loose, differ = packs_say(repo)
    check(loose == 3 and differ == 0, "a commit, a tree and a blob loose: %d" % loose)
    check_ls_cat(repo, "HEAD", label="loose")
    # damage: bytes flipped all over the pack give the right bytes or a
    # read error (exit 2), never other bytes, a crash or a hang
    path = os.path.join(pack_dir, pack)
    good = open(path, "rb").read()
    want = subprocess.run(["git", "-C", repo, "show", "v40:a.c"],
                          capture_output=True).stdout
    outcomes = set()
    for at in range(12, len(good) - 20, max(1, (len(good) - 32) // 40)):
        bad = bytearray(good)
        bad[at] ^= 0x5a
        os.chmod(path, 0o644)
        with open(path, "wb") as f:
            f.write(bad)
        # libgit2 1.5 leaks on some of these errors (inside it, in
        # git_revparse_single()); the sanitizer build is not to count them
        env = dict(os.environ, ASAN_OPTIONS=(os.environ.get("ASAN_OPTIONS", "") +
                                             ":detect_leaks=0").lstrip(":"))
        r = subprocess.run([DUMP, "cat", repo, "v40", "a.c"], capture_output=True,
                           timeout=60, env=env)
        outcomes.add(r.returncode)
        check(r.returncode in (0, 2) and (r.returncode != 0 or r.stdout == want),
              "a pack damaged at %d: exit %d, %s bytes" %
              (at, r.returncode, "right" if r.stdout == want else "other"))
    check(2 in outcomes, "some damage is reported: %s" % outcomes)
    with open(path, "wb") as f:
        f.write(good)


def main():
    with tempfile.TemporaryDirectory() as d:
        small = make_small(d)
        merge = git(small, "log", "-1", "--format=%H", "--grep=merge side").strip()
        revs = ["HEAD", "main", "v0.1", "v1.0", "v1.1", "HEAD~3", merge + "^2", "side",
                git(small, "rev-parse", "HEAD~2").strip()[:10]]
        for rev in revs:
            check_ls_cat(small, rev, label="small")
            desc, _ = dump("describe", small, rev)
            want = git(small, "describe", "--tags", "--always", rev).strip()
            check(desc.decode().strip() == want, "describe %s: %r, want %r" %
                  (rev, desc.decode().strip(), want))
            check_last(small, rev, "full", "small")
            check_last(small, rev, "first", "small")
        got = check_ls_cat(small, "v1.0", "docs", label="small")
        check([g[2] for g in got] == ["docs/a-link.c", "docs/index.md",
                                      "docs/link-to-link.c"],
              "docs/: good links kept, bad ones left out: %s" % [g[2] for g in got])
        check(check_ls_cat(small, "HEAD", "src/", label="small") != [], "src/ lists")
        # at HEAD src/a.c is renamed: the links to it lead nowhere now
        got = check_ls_cat(small, "HEAD", "docs", label="small")
        check([g[2] for g in got] == ["docs/index.md"], "docs/ at HEAD: %s" % got)
        dump("ls", small, "HEAD", "nope", code=1)
        dump("ls", small, "HEAD", "README.md", code=1)
        _, e = dump("cat", small, "HEAD", "docs/dead-link.c", code=1)
        check("docs/dead-link.c" in e, "a dead link says which: %s" % e)
        dump("cat", small, "HEAD", "vendor/sub", code=1)
        dump("cat", small, "HEAD", "src", code=1)
        _, e = dump("ls", small, "no-such-rev", code=2)
        check("no-such-rev" in e, "an unknown revision is named: %s" % e)
        tree = git(small, "rev-parse", "HEAD^{tree}").strip()
        _, e = dump("ls", small, tree, code=2)
        check("not a commit" in e, "a tree is not a commit: %s" % e)
        # paths asked by name, twice, missing, a folder
        got = check_last(small, "HEAD", "full", "asked",
                         ["src/b.c", "README.md", "src/b.c", "nope.c"])
        out, _ = dump("last", small, "HEAD", "full", "src", "README.md")
        got["src"] = tuple(out.decode().splitlines()[0].split()[:2])
        got["src"] = (int(got["src"][0]), got["src"][1])
        check(got["nope.c"] == (0, "-") and got["src"] == (0, "-"),
              "missing paths and folders have no answer")
        # the merge that resolved src/b.c by hand changed it
        merge = git(small, "log", "-1", "--format=%H", "--grep=merge side").strip()
        check(got["src/b.c"][1] == merge, "src/b.c last changed in the merge")

        # no repository at all: "not found", exit 1, no error
        plain = os.path.join(d, "plain")
        os.makedirs(plain)
        out, _ = dump("ls", plain, "HEAD", code=1)
        check(out.decode().strip() == "no repository", "a folder without git")

        # from inside the work tree, and from the .git folder
        check_ls_cat(os.path.join(small, "src"), "v1.0", label="subdir")
        check_ls_cat(os.path.join(small, ".git"), "v1.0", label="dotgit")

        # a bare clone: everything the same
        bare = os.path.join(d, "bare.git")
        subprocess.run(["git", "clone", "-q", "--bare", small, bare], check=True, env=ENV)
        for rev in ["HEAD", "v1.0", "HEAD~3"]:
            a, _ = dump("ls", small, rev)
            b, _ = dump("ls", bare, rev)
            check(a == b and a, "bare ls %s" % rev)
            check_ls_cat(bare, rev, label="bare")
            check_last(bare, rev, "full", "bare")
        desc, _ = dump("describe", bare, "HEAD")
        check(desc.decode().strip() == git(bare, "describe", "--tags", "--always").strip(),
              "bare describe")

        # a repository without tags: the abbreviated id
        notag = os.path.join(d, "notag")
        git(d, "init", "-q", notag)
        write(notag, "x", "x\n")
        git(notag, "add", ".")
        git(notag, "commit", "-q", "-m", "x")
        desc, _ = dump("describe", notag, "HEAD")
        check(desc.decode().strip() == git(notag, "describe", "--tags", "--always").strip(),
              "describe without tags: %s" % desc)

        # a random history with many merges, every file, both walks
        rnd = os.path.join(d, "random")
        genrepo.generate(rnd, 400, 60, seed=7, merge_every=6)
        merges = int(git(rnd, "rev-list", "--merges", "--count", "HEAD"))
        check(merges >= 10, "the random history has merges (%d)" % merges)
        a_merge = git(rnd, "rev-list", "--merges", "-1", "HEAD~20").strip()
        for rev in ["HEAD", "HEAD~5", a_merge, a_merge + "^2"]:
            check_last(rnd, rev, "full", "random")
            check_last(rnd, rev, "first", "random")

        # a shallow clone: answers inside the depth, none beyond, no error
        shallow = os.path.join(d, "shallow")
        subprocess.run(["git", "clone", "-q", "--depth", "4", "--no-single-branch",
                        "file://" + rnd, shallow], check=True, env=ENV)
        check(os.path.exists(os.path.join(shallow, ".git", "shallow")), "the clone is shallow")
        check_ls_cat(shallow, "HEAD", label="shallow")
        out, _ = dump("last", shallow, "HEAD", "full")
        known = unknown = 0
        for line in out.decode().splitlines():
            t, c, p = line.split(" ", 2)
            if c == "-":
                unknown += 1
                continue
            known += 1
            full = git(rnd, "log", "-1", "--format=%ct %H", "HEAD", "--", p).split()
            check([t, c] == full, "shallow last %s: %s %s, want %s" % (p, t, c, full))
        check(known > 0 and unknown > 0,
              "shallow: some answers within the depth (%d), none beyond (%d)" % (known, unknown))

        check_packs(d)

        # forge links from the remote
        git(small, "remote", "add", "origin", "git@github.com:quire-docs/small.git")
        out, _ = dump("source", small, "v1.0")
        commit = git(small, "rev-parse", "v1.0^{commit}").strip()
        check(out.decode().strip() ==
              "https://github.com/quire-docs/small/blob/%s/{path}#L{line}" % commit,
              "source from origin: %s" % out)
        out, _ = dump("source", notag, "HEAD")
        check(out.decode().strip() == "none", "no origin, no template")

        # the branch a revision names, and the editor on it
        for rev, want in (("main", "main"), ("HEAD", "main"),
                          ("refs/heads/main", "main"), ("side", "side"),
                          ("v1.0", "none"), ("main~1", "none"),
                          (commit, "none")):
            out, _ = dump("branch", small, rev)
            check(out.decode().strip() == want,
                  "branch of %s: %s, want %s" % (rev, out, want))
        out, _ = dump("editor", small, "main")
        check(out.decode().strip() ==
              "https://github.com/quire-docs/small/edit/main/{path}",
              "editor of main: %s" % out)
        out, _ = dump("editor", small, "v1.0")
        check(out.decode().strip() == "none", "editor of a tag: %s" % out)
        clone = os.path.join(d, "clone")
        subprocess.run(["git", "clone", "-q", "--no-checkout", small, clone],
                       check=True, env=ENV)
        for rev, want in (("origin/main", "main"), ("origin/HEAD", "main")):
            out, _ = dump("branch", clone, rev)
            check(out.decode().strip() == want,
                  "branch of %s in a clone: %s, want %s" % (rev, out, want))

    forge_table()
    print("%d checks, %d failures" % (checks, failures))
    return 1 if failures else 0


FORGES = [
    # remote, rev, template (None: no template)
    ("https://github.com/torvalds/linux.git", "v6.1",
     "https://github.com/torvalds/linux/blob/v6.1/{path}#L{line}"),
    ("https://github.com/torvalds/linux", "master",
     "https://github.com/torvalds/linux/blob/master/{path}#L{line}"),
    ("git@github.com:libgit2/libgit2.git", "main",
     "https://github.com/libgit2/libgit2/blob/main/{path}#L{line}"),
    ("ssh://git@github.com/commonmark/cmark.git", "0.30.3",
     "https://github.com/commonmark/cmark/blob/0.30.3/{path}#L{line}"),
    ("ssh://git@github.com:22/commonmark/cmark", "feature/x y",
     "https://github.com/commonmark/cmark/blob/feature/x%20y/{path}#L{line}"),
    ("https://user:token@github.com/o/r.git/", "v1",
     "https://github.com/o/r/blob/v1/{path}#L{line}"),
    ("git://github.com/o/r.git", "v1", "https://github.com/o/r/blob/v1/{path}#L{line}"),
    ("https://GitHub.com/O/R", "v1", "https://github.com/O/R/blob/v1/{path}#L{line}"),
    ("https://github.com/o", "v1", None),
    ("https://github.com/o/r/extra", "v1", None),
    ("https://gitlab.com/gitlab-org/gitlab.git", "v16.0.0-ee",
     "https://gitlab.com/gitlab-org/gitlab/-/blob/v16.0.0-ee/{path}#L{line}"),
    ("git@gitlab.com:group/sub/project.git", "main",
     "https://gitlab.com/group/sub/project/-/blob/main/{path}#L{line}"),
    ("https://gitlab.freedesktop.org/mesa/mesa.git", "mesa-23.0.0",
     "https://gitlab.freedesktop.org/mesa/mesa/-/blob/mesa-23.0.0/{path}#L{line}"),
    ("ssh://git@gitlab.gnome.org:2222/GNOME/glib.git", "2.76.0",
     "https://gitlab.gnome.org/GNOME/glib/-/blob/2.76.0/{path}#L{line}"),
    ("https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git", "v6.1",
     "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/{path}?h=v6.1#n{line}"),
    ("git://git.kernel.org/pub/scm/git/git.git", "master",
     "https://git.kernel.org/pub/scm/git/git.git/tree/{path}?h=master#n{line}"),
    ("git@gitolite.kernel.org:pub/scm/linux/kernel/git/stable/linux.git",
     "830b3c68c1fb1e9176028d02ef86f3cf76aa2476",
     "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree/{path}"
     "?id=830b3c68c1fb1e9176028d02ef86f3cf76aa2476#n{line}"),
    ("https://git.kernel.org/cgit/linux/kernel/git/torvalds/linux.git", "v6.1", None),
    ("https://bitbucket.org/o/r.git", "v1", None),
    ("https://example.org/git/r.git", "v1", None),
    ("/srv/git/r.git", "v1", None),
    ("file:///srv/git/r.git", "v1", None),
    ("../r.git", "v1", None),
    ("C:/repos/r", "v1", None),
    ("github.com/o/r", "v1", None),
    ("https://github.com/o/r\"onmouseover=alert(1)", "v1", None),
    ("https://github.com/o/<script>", "v1", None),
    ("https://github.com/o/../r", "v1", None),
    ("https://github.com/o/r", "v1\"<x>", "https://github.com/o/r/blob/v1%22%3Cx%3E/{path}#L{line}"),
    ("ssh://git@gitlab.g{path}nome.org:2222/GNOME/glib", "v1", None),
    ("https://gitlab.exa_mple.org/a/b", "v1", None),
    ("", "v1", None),
    ("https://github.com/o/r", "", None),
]


def forge_table():
    for remote, rev, want in FORGES:
        out, _ = dump("forge", remote, rev)
        got = out.decode().strip()
        check(got == (want or "none"), "forge %r %r: %r, want %r" % (remote, rev, got, want))
        # the editor: GitHub's /edit/, GitLab's /-/edit/, none on a cgit
        edit = None
        if want and "/tree/" not in want:
            edit = want.replace("/blob/", "/edit/").replace("#L{line}", "")
        out, _ = dump("edit", remote, rev)
        got = out.decode().strip()
        check(got == (edit or "none"), "edit %r %r: %r, want %r" % (remote, rev, got, edit))


if __name__ == "__main__":
    sys.exit(main())
