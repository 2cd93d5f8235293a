#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark: quire's search index against Pagefind on the zero-config site
# of linux-source-6.1, in the same run.
#
# quire: the index's share of the build's wall time (QUIRE_TIMING's
# "search" phase over the whole build, median of RUNS builds), its files
# and bytes. Pagefind (npm package pagefind, installed under test/bench
# by `npm ci --prefix test/bench`): its wall time and peak memory over the
# same site (median of PF_RUNS runs), its files and bytes. Then, in
# chromium from a cold cache, the requests and bytes each query costs
# with both (search-cost.mjs), and quire's time to results with the
# shards cached. Sphinx's searchindex.js for the kernel's 6.1 docs is
# given as the figure Debian's linux-doc-6.1 ships (14.9 MB, one file),
# or measured when that package is installed. Not part of the tests.
#
# usage: test/bench/search.sh QUIRE [TREE]
#   QUIRE  the quire binary (e.g. build/cmd/quire/quire)
#   TREE   an extracted kernel tree; default: extract the tarball
# Environment: RUNS (default 3), PF_RUNS (default 1: one run takes
# minutes and gigabytes), NO_PAGEFIND=1 to leave Pagefind out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
quire=$(readlink -f "$1")
tree=${2:-}
runs=${RUNS:-3}
pf_runs=${PF_RUNS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] || { echo "no $tarball; pass a TREE"; exit 77; }
	echo "extracting $tarball ..."
	tar -xJf "$tarball" -C "$tmp"
	tree=$tmp/linux-source-6.1
fi
site=$tmp/site
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$tmp/walls"
: >"$tmp/searches"
i=0
while [ $i -lt "$runs" ]; do
	rm -rf "$site"
	QUIRE_TIMING=1 QUIRE_NO_PROGRESS=1 /usr/bin/time -f '%e %M' -o "$tmp/time" \
		"$quire" build "$tree" -o "$site" -q 2>"$tmp/diag" || true
	read -r wall rss <"$tmp/time"
	s=$(sed -n 's/^quire build: search *\([0-9.]*\) s.*$/\1/p' "$tmp/diag")
	echo "quire build run $((i + 1)): wall $wall s, index $s s, peak RSS $((rss / 1024)) MB"
	echo "$wall" >>"$tmp/walls"
	echo "$s" >>"$tmp/searches"
	i=$((i + 1))
done
wall=$(median <"$tmp/walls")
idx=$(median <"$tmp/searches")
qbytes=$(du -sb "$site/_search" | cut -f1)
qfiles=$(find "$site/_search" -type f | wc -l)
qgz=$(find "$site/_search" -type f -exec sh -c 'for f; do gzip -6c "$f" | wc -c; done' sh {} + |
	awk '{ s += $1 } END { print s }')
echo
echo "quire index: $idx s of a $wall s build (median of $runs):" \
	"$(awk "BEGIN { printf \"%.1f\", 100 * $idx / $wall }")% of the wall time"
echo "quire index: $qfiles files, $qbytes bytes ($((qbytes / 1048576)) MB), $((qgz / 1048576)) MB gzipped," \
	"manifest $(wc -c <"$site/_search/index.js") bytes"

pfbytes=
if [ -z "${NO_PAGEFIND:-}" ]; then
	pagefind=$here/node_modules/.bin/pagefind
	[ -x "$pagefind" ] || { echo "no $pagefind: npm ci --prefix test/bench"; exit 77; }
	: >"$tmp/pfwalls"
	i=0
	while [ $i -lt "$pf_runs" ]; do
		rm -rf "$site/pagefind"
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$pagefind" --site "$site" \
			>"$tmp/pflog" 2>&1 || { tail -5 "$tmp/pflog"; exit 1; }
		read -r pfwall pfrss <"$tmp/time"
		echo "pagefind run $((i + 1)): wall $pfwall s, peak RSS $((pfrss / 1024)) MB"
		echo "$pfwall" >>"$tmp/pfwalls"
		i=$((i + 1))
	done
	pfwall=$(median <"$tmp/pfwalls")
	pfbytes=$(du -sb "$site/pagefind" | cut -f1)
	pffiles=$(find "$site/pagefind" -type f | wc -l)
	echo "pagefind index: $pfwall s (median of $pf_runs), $pffiles files, $pfbytes bytes ($((pfbytes / 1048576)) MB)"
	echo "ratios: build time pagefind/quire $(awk "BEGIN { printf \"%.0f\", $pfwall / $idx }")x," \
		"bytes on disk pagefind/quire $(awk "BEGIN { printf \"%.2f\", $pfbytes / $qbytes }")x"
fi
sphinx=/usr/share/doc/linux-doc-6.1/html/searchindex.js
if [ -r "$sphinx" ]; then
	echo "sphinx searchindex.js (linux-doc-6.1): $(wc -c <"$sphinx") bytes, one request, all of it per query"
else
	echo "sphinx searchindex.js (Debian linux-doc-6.1, as given): 14.9 MB, one request, all of it per query"
fi

echo
echo "per query, cold cache, in chromium (requests, bytes sent, bytes gzipped; quire: ms to results when cached):"
node "$here/search-cost.mjs" "$site" ${pfbytes:+--pagefind} list_add kmalloc spin_lock_irqsave \
	"struct device" "dma fence" workqueue EXPORT_SYMBOL_GPL copy_from_user "rcu read lock" skb_put \
	>"$tmp/cost"
awk -F'\t' '{ printf "  %-9s %-18s %2d requests %8d B %8d B gz %s\n", $1, $2, $3, $4, $5, ($6 == "-" ? "" : $6 " ms") }' "$tmp/cost"
awk -F'\t' '
	$1 == "quire" { qn += $3; qb += $4; qg += $5; q++; if ($3 > qm) qm = $3; if ($4 > qx) qx = $4; ms[q] = $6 }
	$1 == "pagefind" { pn += $3; pb += $4; pg += $5; p++ }
	END {
		printf "quire: mean %.1f requests (max %d), mean %.0f KB (max %.0f KB), mean %.0f KB gzipped\n", qn / q, qm, qb / q / 1024, qx / 1024, qg / q / 1024
		if (p) {
			printf "pagefind: mean %.1f requests, mean %.0f KB, mean %.0f KB gzipped\n", pn / p, pb / p / 1024, pg / p / 1024
			printf "ratios pagefind/quire: requests %.1fx, bytes %.1fx, gzipped bytes %.1fx\n", pn / qn, pb / qb, pg / qg
		}
		printf "sphinx/quire bytes per query: %.0fx\n", 14.9 * 1048576 / (qb / q)
	}' "$tmp/cost"
