#!/bin/bash
# SPDX-License-Identifier: MIT
# Speed and memory of quire against scripts/kernel-doc on the whole
# linux-source-6.1 tree: every .c and .h file with a line starting "/**".
# Runs, in one go and on the same file list, the four commands
#
#   quire check             scripts/kernel-doc -none
#   quire extract --json    scripts/kernel-doc -rst
#
# and prints wall time, CPU time and peak RSS of each, and the ratios.
# Not part of the test suite: timing stays out of the tests.
#
# usage: test/bench/kdoc.sh [-q QUIRE] [-t TREE] [-j N]
#   QUIRE  the quire binary (default: build/cmd/quire/quire)
#   TREE   an unpacked kernel tree (default: the Debian tarball
#          /usr/src/linux-source-6.1.tar.xz, unpacked once into
#          build-bench/)
#   N      quire's threads (default: one per processor)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
quire=$root/build/cmd/quire/quire
tree=
jobs=0
while getopts q:t:j: opt; do
	case $opt in
	q) quire=$(realpath "$OPTARG") ;;
	t) tree=$(realpath "$OPTARG") ;;
	j) jobs=$OPTARG ;;
	*) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
[ -x "$quire" ] || { echo "kdoc.sh: no quire at $quire (ninja -C build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "kdoc.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

if [ -z "$tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f $tarball ] || { echo "kdoc.sh: $tarball is absent (apt-get install linux-source-6.1)" >&2; exit 2; }
	tree=$root/build-bench/linux-source-6.1
	if [ ! -f "$tree/.unpacked" ]; then
		echo "unpacking $tarball into $root/build-bench ..."
		mkdir -p "$root/build-bench"
		tar -xJf $tarball -C "$root/build-bench"
		touch "$tree/.unpacked"
	fi
fi
[ -f "$tree/scripts/kernel-doc" ] || { echo "kdoc.sh: $tree has no scripts/kernel-doc" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$tree"
grep -rl --include='*.c' --include='*.h' '^/\*\*' . | sed 's|^\./||' |
	LC_ALL=C sort > "$out/files"
nfiles=$(wc -l < "$out/files")
mb=$(xargs -a "$out/files" -d '\n' cat | wc -c | awk '{ printf "%.0f", $1 / 1e6 }')
echo "linux-source-6.1: $nfiles files with kernel-doc, $mb MB; $(nproc) processors"

# Warm the page cache so that the first command is not the one to pay.
xargs -a "$out/files" -d '\n' cat > /dev/null

# run NAME CMD...: time one command over the file list.
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$out/$name.time" \
		"$@" > "$out/$name.out" 2> "$out/$name.err" || true
	# The last line: time says "Command exited with non-zero status"
	# first when a command fails (kernel-doc exits with its error count).
	read -r wall user sys rss < <(tail -n 1 "$out/$name.time") || true
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	printf '%-24s %9.2f s %9s s %8d MB\n' "$name" "$wall" "$cpu" $((rss / 1024))
	eval "wall_${name//[^a-z]/_}=$wall"
}

mapfile -t files < "$out/files"
printf '%-24s %11s %11s %11s\n' command wall cpu 'peak RSS'
run quire-check "$quire" check -q -j "$jobs" "${files[@]}"
run kernel-doc-none perl scripts/kernel-doc -none "${files[@]}"
run quire-extract-json "$quire" extract --json -j "$jobs" "${files[@]}"
run kernel-doc-rst perl scripts/kernel-doc -rst -sphinx-version 5.3.0 "${files[@]}"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "inf" }'; }
echo
echo "check vs -none:   $(ratio "$wall_kernel_doc_none" "$wall_quire_check") faster (goal: 50x, aim 100x)"
echo "extract vs -rst:  $(ratio "$wall_kernel_doc_rst" "$wall_quire_extract_json") faster (goal: 100x)"
echo "items: quire $(wc -l < "$out/quire-extract-json.out"), kernel-doc $(grep -c '^\.\. c:\|^\.\. _' "$out/kernel-doc-rst.out" || true)"
echo "warnings: quire $(grep -c ': warning: \|: error: ' "$out/quire-check.err" || true)," \
	"kernel-doc $(grep -c ': warning: \|: error: ' "$out/kernel-doc-none.err" || true)"
