#!/bin/bash
# SPDX-License-Identifier: MIT
# Benchmark: incremental builds of the zero-config linux-source-6.1 site
# against the clean build, in the same run, medians of RUNS runs each:
#
#   clean     a build with no cache into a fresh folder
#   no-op     a rebuild with nothing changed
#   one edit  one comment of include/linux/list.h reworded
#   release   the comments of 10% of the documented files reworded
#             (spread over the tree), 50 files added and 50 removed
#
# then Sphinx 5.3's own incremental rebuild on Documentation/core-api after
# touching one .rst file, against its clean build (the incumbent), and
# `ninja -C BUILD docs` on quire's own docs run twice.
#
# Not part of the test suite: timing stays out of the tests.
#
# usage: test/bench/incremental.sh QUIRE [TREE] [RUNS]
#   QUIRE  the quire binary (e.g. build/cmd/quire/quire)
#   TREE   an extracted kernel tree, copied before it is edited; default:
#          extract /usr/src/linux-source-6.1.tar.xz
#   RUNS   runs per figure (default 3)
set -euo pipefail
quire=$(readlink -f "$1")
src_tree=${2:-}
runs=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export QUIRE_NO_PROGRESS=1
if [ -z "$src_tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] || { echo "no $tarball; pass a TREE"; exit 77; }
	echo "extracting $tarball ..."
	tar -xJf "$tarball" -C "$tmp"
	src_tree=$tmp/linux-source-6.1
fi
tree=$tmp/tree
cp -a "$src_tree" "$tree"

# aside DIR...: move each DIR out of the way, into $tmp/aside/, removed
# when the bench ends. Not removed now: on ext4 without a journal (as on
# the machines this bench has run on), every file or folder created in
# the minutes after a removal first looks at each inode removed in that
# time, so a tree removed between runs (70,000 files) slows the builds
# after it (the clean build's three runs took 4.10, 7.11 and 5.73 s).
aside() {
	local d
	mkdir -p "$tmp/aside"
	for d in "$@"; do
		[ -e "$d" ] && mv "$d" "$(mktemp -d "$tmp/aside/XXXXXX")/"
	done
	return 0
}

# wall seconds of one command
wall() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
	t1=$(date +%s.%N)
	awk "BEGIN { printf \"%.3f\", $t1 - $t0 }"
}
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
summary() { grep 'pages rendered' "$tmp/err" | sed 's/^quire build: //'; }

build() { "$quire" build "$tree" -o "$tmp/site" "$@"; }

# the files with kernel-doc, in a fixed order
(cd "$tree" && grep -rl --include='*.[ch]' '^/\*\*' . | sed 's|^\./||' |
	LC_ALL=C sort) > "$tmp/documented"
ndoc=$(wc -l < "$tmp/documented")

# reword the first line of every kernel-doc comment of a file
reword() { sed -i 's|^\(/\*\*\)$|\1\n * (reworded)|' "$tree/$1"; }

declare -a clean noop edit release
for r in $(seq "$runs"); do
	aside "$tmp/site" "$tmp/.quire-cache"
	clean+=("$(wall build --no-cache)")
	# the first cached build writes the cache; it is not measured
	aside "$tmp/site"
	build >/dev/null 2>&1
	noop+=("$(wall build)")
	noop_what=$(summary)
	sed -i "s/^ \* list_add - add a new entry\$/ * list_add - add a new entry (run $r)/" \
		"$tree/include/linux/list.h"
	edit+=("$(wall build)")
	edit_what=$(summary)
	# a release: every tenth documented file reworded, 50 added, 50 removed
	awk -v r="$r" 'NR % 10 == r % 10' "$tmp/documented" > "$tmp/touched"
	while read -r f; do reword "$f"; done < "$tmp/touched"
	for i in $(seq 50); do
		printf '/**\n * bench_new_%d_%d() - added\n * @x: x\n */\nint bench_new_%d_%d(int x);\n' \
			"$r" "$i" "$r" "$i" > "$tree/include/linux/bench_new_${r}_$i.h"
	done
	awk -v r="$r" 'NR % 97 == r' "$tmp/documented" | head -50 |
		while read -r f; do rm -f "$tree/$f"; done
	release+=("$(wall build)")
	release_what=$(summary)
	# put the tree back for the next run
	aside "$tree"
	cp -a "$src_tree" "$tree"
done

c=$(echo "${clean[@]}" | median)
report() {
	local name=$1 m=$2 what=$3
	awk -v n="$name" -v m="$m" -v c="$c" -v w="$what" 'BEGIN {
		printf "%-10s %7.3f s  %6.1f%% of clean  %s\n", n, m, 100 * m / c, w }'
}
echo
echo "zero-config linux-source-6.1: $ndoc documented files, $runs runs, medians"
echo "clean      $(printf '%7.3f' "$c") s  (runs: ${clean[*]})"
report "no-op" "$(echo "${noop[@]}" | median)" "$noop_what"
report "one edit" "$(echo "${edit[@]}" | median)" "$edit_what"
report "release" "$(echo "${release[@]}" | median)" "$release_what"
# every run, in order: this machine's moments differ more than builds do
echo "runs: no-op ${noop[*]}; one edit ${edit[*]}; release ${release[*]}"

# the incumbent: Sphinx's incremental rebuild of one subfolder, run as
# `make htmldocs SPHINXDIRS=core-api` runs it, on an untouched copy
if command -v sphinx-build >/dev/null && [ -f "$src_tree/Documentation/conf.py" ]; then
	sphinx() {
		(cd "$tree" && sphinx-build -q -j auto -b html \
			-c "$tree/Documentation" -d "$tmp/doctrees" \
			-D kerneldoc_srctree="$tree" \
			-D kerneldoc_bin="$tree/scripts/kernel-doc" \
			"$tree/Documentation/core-api" "$tmp/shtml")
	}
	sc=$(wall sphinx)
	sn=$(wall sphinx)
	touch "$tree/Documentation/core-api/kobject.rst"
	si=$(wall sphinx)
	awk -v c="$sc" -v n="$sn" -v i="$si" 'BEGIN {
		printf "sphinx Documentation/core-api: clean %.2f s, no-op %.2f s (%.1f%%), one file touched %.2f s (%.1f%% of clean)\n", c, n, 100 * n / c, i, 100 * i / c }'
fi

# ninja docs on quire's own docs, twice
root=$(cd "$(dirname "$0")/../.." && pwd)
bdir=$(dirname "$(dirname "$(dirname "$quire")")")
if [ -f "$bdir/build.ninja" ]; then
	rm -rf "$bdir/docs/site"
	first=$(wall ninja -C "$bdir" docs)
	second=$(wall ninja -C "$bdir" docs)
	echo "ninja docs ($root/docs): first $first s, second $second s"
fi
