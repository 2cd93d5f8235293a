#!/bin/sh
# SPDX-License-Identifier: MIT
# Search on a zero-config site of part of linux-source-6.1 (include/linux,
# kernel, mm, lib, drivers/dma-buf, net/core): the index is the same with
# -j1 and -j2, and the theme's own ranking (query.mjs, in node) gives the
# answers of kernel.queries. Skips (77) without the tarball or node.
# usage: kernel.sh QUIRE DIR
set -eu
quire=$(readlink -f "$1") dir=$2
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "SKIP: $tarball not found (apt install linux-source-6.1)"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k=linux-source-6.1
tar -xJf "$tarball" -C "$tmp" $k/include/linux $k/kernel $k/mm $k/lib \
	$k/drivers/dma-buf $k/net/core
QUIRE_NO_PROGRESS=1 "$quire" build "$tmp/$k" -o "$tmp/j1" -j 1 -q 2>/dev/null || true
QUIRE_NO_PROGRESS=1 "$quire" build "$tmp/$k" -o "$tmp/j2" -j 2 -q 2>/dev/null || true
[ -f "$tmp/j1/_search/index.js" ] || { echo "FAIL: no index"; exit 1; }
diff -r "$tmp/j1/_search" "$tmp/j2/_search" >/dev/null ||
	{ echo "FAIL: -j1 and -j2 give different index bytes"; exit 1; }
echo "index: $(find "$tmp/j1/_search/t" -type f | wc -l) term shards," \
	"$(du -sk "$tmp/j1/_search" | cut -f1) KB, identical for -j1 and -j2"
node "$dir/query.mjs" "$tmp/j1" --check "$dir/kernel.queries"
