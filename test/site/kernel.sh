#!/bin/sh
# SPDX-License-Identifier: MIT
# The zero-config site of the whole linux-source-6.1 tree: every page
# parses with libxml2 and no internal link or anchor is broken. Skips
# (77) when Debian's linux-source-6.1 package is not installed.
# usage: kernel.sh QUIRE LINKCHECK
set -eu
quire=$(readlink -f "$1") linkcheck=$2
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -r "$tarball" ]; then
	echo "skip: $tarball not found (apt install linux-source-6.1)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp"
QUIRE_NO_PROGRESS=1 "$quire" build "$tmp/linux-source-6.1" -o "$tmp/site" \
	2>"$tmp/diag" || { tail -5 "$tmp/diag"; exit 1; }
tail -1 "$tmp/diag"
pages=$(find "$tmp/site" -name '*.html' | wc -l)
echo "pages: $pages"
# the tree documents about ten thousand files; far fewer means a failure
[ "$pages" -gt 9000 ] || { echo "too few pages"; exit 1; }
# every item quire extract finds in the tree is on a page
items=$(sed -n 's/.* pages, \([0-9]*\) items,.*/\1/p' "$tmp/diag")
want=$(cd "$tmp/linux-source-6.1" &&
	grep -rl --include='*.[ch]' '^/\*\*' . | sed 's|^\./||' | sort |
	xargs "$quire" extract --json 2>/dev/null | wc -l)
echo "items: $items on pages, $want extracted"
[ "$items" = "$want" ] || { echo "items missing from the site"; exit 1; }
"$linkcheck" "$tmp/site" | tail -20
