#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark of lib/git:
#
#   last changed  qu_git_last_changed() for every file of a generated
#                 history of COMMITS commits touching FILES files (with
#                 merges), first-parent and full walks; generation (git
#                 fast-import, then `git repack -ad` as a clone is packed) is
#                 outside the timed part. Median of RUNS runs.
#   reading       every file of a revision read from the object database
#                 with 1 and 2 threads (one handle each), when a TREE is
#                 given: a folder committed into a fresh repository first.
#
# Not part of the test suite: timing stays out of the tests.
#
# usage: test/bench/git.sh GITDUMP [COMMITS] [FILES] [RUNS] [TREE]
#   GITDUMP  build/test/git/gitdump
#   COMMITS  default 100000; FILES default 10000; RUNS default 5
#   TREE     an extracted tree to commit and read (e.g. linux-6.1), optional;
#            every file is added, even those its .gitignore names (the
#            Debian tarball ignores everything at its top level)
set -euo pipefail
dump=$(readlink -f "$1")
commits=${2:-100000}
files=${3:-10000}
runs=${4:-5}
tree=${5:-}
here=$(dirname "$(readlink -f "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "generating $commits commits over $files files..."
t0=$(date +%s%N)
python3 "$here/../git/genrepo.py" "$tmp/repo" "$commits" "$files" 1 50
git -C "$tmp/repo" repack -adq  # packed as a clone is, deltas and all
echo "generated in $(( ($(date +%s%N) - t0) / 1000000 )) ms" \
     "($(git -C "$tmp/repo" rev-list --count HEAD) commits," \
     "$(git -C "$tmp/repo" rev-list --merges --count HEAD) merges)"

for walk in first full; do
	for _ in $(seq "$runs"); do
		GITDUMP_TIME=1 "$dump" last "$tmp/repo" HEAD "$walk" 2>&1 >"$tmp/out" |
			sed -n 's/^last_ms //p'
		# CPU time too: on a shared machine the wall clock waits for others
		/usr/bin/time -f '%U %S' "$dump" last "$tmp/repo" HEAD "$walk" \
			2>>"$tmp/cpu" >/dev/null
	done >"$tmp/ms"
	echo "last changed, $walk walk, $(wc -l <"$tmp/out") files:" \
	     "median $(median <"$tmp/ms") ms of $runs runs ($(tr '\n' ' ' <"$tmp/ms")), CPU median" \
	     "$(awk '{printf "%d\n", ($1 + $2) * 1000}' "$tmp/cpu" | median) ms"
	rm -f "$tmp/cpu"
done
# spot-check against git: 20 files
for p in $(awk 'NR % 500 == 1 {print $3}' "$tmp/out"); do
	want=$(git -C "$tmp/repo" log -1 --format='%ct %H' -- "$p")
	got=$(awk -v p="$p" '$3 == p {print $1, $2}' "$tmp/out")
	[ "$want" = "$got" ] || { echo "MISMATCH $p: $got, git says $want"; exit 1; }
done
echo "spot-check against git log -1: ok"
echo "git log -1 -- PATH for one file, for scale:" \
     "$( { /usr/bin/time -f %e git -C "$tmp/repo" log -1 --format=%H -- d000/f00000.c >/dev/null; } 2>&1) s"

if [ -n "$tree" ]; then
	echo "committing $tree..."
	t0=$(date +%s%N)
	git init -q "$tmp/tree"
	git --git-dir="$tmp/tree/.git" --work-tree="$(readlink -f "$tree")" \
		-C "$(readlink -f "$tree")" add -A -f .
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.org \
	GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.org \
		git -C "$tmp/tree" commit -q -m tree
	echo "committed in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
	for th in 1 2; do
		for _ in $(seq "$runs"); do
			"$dump" read "$tmp/tree" HEAD "$th"
		done >"$tmp/read"
		echo "read every file, $th thread(s): $(head -1 "$tmp/read" | cut -d' ' -f1-4);" \
		     "list median $(awk '{print $6}' "$tmp/read" | median) ms," \
		     "read median $(awk '{print $8}' "$tmp/read" | median) ms"
	done
fi
