#!/bin/bash
# SPDX-License-Identifier: MIT
# Time of quire man against scripts/kernel-doc -man | scripts/split-man.pl
# on the whole linux-source-6.1 tree: every .c and .h file with a line
# starting "/**", the same list for both, each writing into a fresh empty
# folder. Runs each RUNS times, alternating, and prints the median wall
# time of each, the ratio, the page count and size of each, and the
# result of mandoc -Tlint over quire's pages. Not part of the test
# suite: timing stays out of the tests.
#
# usage: test/bench/man.sh [-q QUIRE] [-t TREE] [-j N] [-n RUNS]
#   QUIRE  the quire binary (default: build/cmd/quire/quire)
#   TREE   an unpacked kernel tree (default: the Debian tarball
#          /usr/src/linux-source-6.1.tar.xz, unpacked once into
#          build-bench/)
#   N      quire's threads (default: one per processor)
#   RUNS   runs of each command (default: 3)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
quire=$root/build/cmd/quire/quire
tree=
jobs=0
runs=3
while getopts q:t:j:n: opt; do
	case $opt in
	q) quire=$(realpath "$OPTARG") ;;
	t) tree=$(realpath "$OPTARG") ;;
	j) jobs=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
[ -x "$quire" ] || { echo "man.sh: no quire at $quire (ninja -C build)" >&2; exit 2; }
if [ -z "$tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f $tarball ] || { echo "man.sh: $tarball is absent (apt-get install linux-source-6.1)" >&2; exit 2; }
	tree=$root/build-bench/linux-source-6.1
	if [ ! -f "$tree/.unpacked" ]; then
		echo "unpacking $tarball into $root/build-bench ..."
		mkdir -p "$root/build-bench"
		tar -xJf $tarball -C "$root/build-bench"
		touch "$tree/.unpacked"
	fi
fi
[ -f "$tree/scripts/kernel-doc" ] || { echo "man.sh: $tree has no scripts/kernel-doc" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$tree"
grep -rl --include='*.c' --include='*.h' '^/\*\*' . | sed 's|^\./||' |
	LC_ALL=C sort > "$out/files"
mapfile -t files < "$out/files"
echo "linux-source-6.1: ${#files[@]} files with kernel-doc; $(nproc) processors"
xargs -a "$out/files" -d '\n' cat > /dev/null # warm the page cache

export SOURCE_DATE_EPOCH=1670716800 KBUILD_BUILD_TIMESTAMP=@1670716800
# secs CMD...: wall time of one command, in seconds
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" > /dev/null 2>&1 || true
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}
reference() {
	perl scripts/kernel-doc -man "${files[@]}" 2>/dev/null |
		perl scripts/split-man.pl "$out/ref" 2>/dev/null
}
for i in $(seq "$runs"); do
	rm -rf "$out/quire" "$out/ref"
	secs "$quire" man -q -j "$jobs" -o "$out/quire" "${files[@]}" >> "$out/quire.t"
	secs reference >> "$out/ref.t"
	echo "run $i: quire $(tail -1 "$out/quire.t") s, kernel-doc -man | split-man.pl $(tail -1 "$out/ref.t") s"
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mq=$(median "$out/quire.t")
mr=$(median "$out/ref.t")
echo
echo "median of $runs: quire man ${mq} s, kernel-doc -man | split-man.pl ${mr} s:" \
	"$(awk -v a="$mr" -v b="$mq" 'BEGIN { printf "%.0fx", a / b }') faster"
echo "pages: quire $(ls "$out/quire/man9" | wc -l) ($(du -sk "$out/quire/man9" | cut -f1) kB on disk," \
	"$(du -sb "$out/quire/man9" | cut -f1) bytes), kernel-doc $(ls "$out/ref" | wc -l)" \
	"($(du -sk "$out/ref" | cut -f1) kB on disk, $(du -sb "$out/ref" | cut -f1) bytes)"
if command -v mandoc > /dev/null; then
	n=$(cd "$out/quire/man9" && ls | xargs -n 4000 mandoc -Tlint 2>&1 | wc -l)
	echo "mandoc -Tlint over quire's pages: $n messages"
fi
