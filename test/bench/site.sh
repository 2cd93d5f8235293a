#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark: the zero-config site of the whole linux-source-6.1 tree.
# Prints wall time, CPU time and peak memory of `quire build`, and the
# pages and items it made. Not part of the test suite: timing stays out
# of the tests.
#
# usage: test/bench/site.sh QUIRE [TREE] [JOBS]
#   QUIRE  the quire binary (e.g. build/cmd/quire/quire)
#   TREE   an extracted kernel tree; default: extract
#          /usr/src/linux-source-6.1.tar.xz into a temporary folder
#   JOBS   worker threads (default: one per processor)
set -eu
quire=$1
tree=${2:-}
jobs=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] || { echo "no $tarball; pass a TREE"; exit 77; }
	echo "extracting $tarball ..."
	tar -xJf "$tarball" -C "$tmp"
	tree=$tmp/linux-source-6.1
fi
run() {
	QUIRE_NO_PROGRESS=1 /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" \
		"$quire" build "$tree" -o "$1" -j "$jobs" 2>"$tmp/diag" || true
	read -r wall user sys rss <"$tmp/time"
	cpu=$(awk "BEGIN { print $user + $sys }")
	echo "$2: wall ${wall} s, CPU ${cpu} s (user ${user}, sys ${sys})," \
		"peak RSS $((rss / 1024)) MB"
}
# a cold run into an empty folder, then a rebuild that replaces the site
run "$tmp/site" "fresh build  "
run "$tmp/site" "rebuild      "
tail -1 "$tmp/diag"
echo "pages: $(find "$tmp/site" -name '*.html' | wc -l)," \
	"size: $(du -sh "$tmp/site" | cut -f1)," \
	"warnings: $(grep -c ' warning: ' "$tmp/diag" || true)"
