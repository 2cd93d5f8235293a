#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark: `quire build --rev` of a tree committed into a local bare
# repository, beside the same build of the files on disk (both
# zero-config, --no-cache, medians of RUNS). The tree is committed with
# GIT_DIR outside it, so nothing is written into the tree (with -f: the
# Debian tree's .gitignore ignores "/*"), then packed. The two builds
# alternate, run by run. Not part of the test suite: timing stays out of
# the tests.
#
# usage: test/bench/rev.sh QUIRE TREE [RUNS] [SCRATCH]
#   QUIRE    the quire binary (e.g. build/cmd/quire/quire)
#   TREE     a source tree (e.g. /work/linux/linux-source-6.1)
#   RUNS     runs of each build (default 3)
#   SCRATCH  a folder for the repository and the sites (default: mktemp)
set -eu
quire=$(readlink -f "$1")
tree=$(readlink -f "$2")
runs=${3:-3}
tmp=${4:-$(mktemp -d)}
mkdir -p "$tmp"
repo=$tmp/tree.git
if [ ! -d "$repo" ]; then
	git init -q --bare "$repo"
	start=$(date +%s.%N)
	GIT_DIR=$repo GIT_WORK_TREE=$tree git add -A -f
	GIT_DIR=$repo GIT_WORK_TREE=$tree git -c user.name=b \
		-c user.email=b@example.org -c gc.auto=0 commit -qm tree
	GIT_DIR=$repo git tag v1.0
	# packed, as a clone is (and as `git gc --auto` would leave it, in
	# the background, during the first timed runs)
	GIT_DIR=$repo git repack -adq
	echo "commit and pack: $(awk "BEGIN { print $(date +%s.%N) - $start }") s" \
		"($(GIT_DIR=$repo git count-objects -v | sed -n 's/^size-pack: //p') KB packed)"
fi
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
one() {
	/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" 2>"$tmp/err" >/dev/null
	read -r wall user sys <"$tmp/time"
	echo "$wall $(awk "BEGIN { print $user + $sys }")"
}
# the two builds alternate, so that a change in the machine's load
# falls on both alike
: >"$tmp/tree.wall"; : >"$tmp/tree.cpu"; : >"$tmp/rev.wall"; : >"$tmp/rev.cpu"
i=0
while [ $i -lt "$runs" ]; do
	for kind in tree rev; do
		rm -rf "$tmp/site-$kind"
		if [ $kind = tree ]; then
			set -- one "$quire" build "$tree" -o "$tmp/site-$kind" \
				--no-cache --quiet
		else
			set -- one "$quire" build --rev v1.0 --repo "$repo" \
				-o "$tmp/site-$kind" --no-cache --quiet
		fi
		QUIRE_NO_PROGRESS=1 "$@" >"$tmp/one"
		read -r w c <"$tmp/one"
		echo "$w" >>"$tmp/$kind.wall"
		echo "$c" >>"$tmp/$kind.cpu"
	done
	i=$((i + 1))
done
for kind in tree rev; do
	echo "$kind: wall $(median <"$tmp/$kind.wall") s," \
		"cpu $(median <"$tmp/$kind.cpu") s (runs: $(tr '\n' ' ' <"$tmp/$kind.wall"))"
done
awk -v a="$(median <"$tmp/tree.wall")" -v b="$(median <"$tmp/rev.wall")" \
	-v c="$(median <"$tmp/tree.cpu")" -v d="$(median <"$tmp/rev.cpu")" \
	'BEGIN { printf "--rev costs %+.0f%% wall, %+.0f%% CPU\n", 100 * (b / a - 1), 100 * (d / c - 1) }'
# the same site, but for what must differ (the version)
diff -r "$tmp/site-tree" "$tmp/site-rev" >"$tmp/diff" 2>&1 || true
echo "files differing: $(grep -c '^diff ' "$tmp/diff" || true)"
