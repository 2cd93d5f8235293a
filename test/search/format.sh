#!/bin/sh
# SPDX-License-Identifier: MIT
# The index of test/search/site: the same bytes with -j1 and -j8, and the
# bytes of site.golden (every file under _search/, sorted by name, each
# after a "== NAME" line): the format, the tokens kept and the scores.
# After a change on purpose: format.sh QUIRE DIR --update
# usage: format.sh QUIRE DIR [--update]
set -eu
quire=$1 dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$quire" build "$dir/site" -o "$tmp/j1" -j 1 -q
"$quire" build "$dir/site" -o "$tmp/j8" -j 8 -q
diff -r "$tmp/j1/_search" "$tmp/j8/_search" ||
	{ echo "FAIL: -j1 and -j8 give different index bytes"; exit 1; }
(cd "$tmp/j1/_search" && find . -type f | LC_ALL=C sort | while read -r f; do
	echo "== ${f#./}"
	cat "$f"
done) >"$tmp/got"
if [ "${3:-}" = --update ]; then
	cp "$tmp/got" "$dir/site.golden"
	exit 0
fi
diff -u "$dir/site.golden" "$tmp/got" ||
	{ echo "FAIL: the index differs from site.golden"; exit 1; }
echo "ok: index of $(grep -c '^== ' "$tmp/got") files, identical for -j1 and -j8 and to site.golden"
