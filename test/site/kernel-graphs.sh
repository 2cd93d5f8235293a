#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel's graphs: linux-source-6.1's Documentation/gpu (the dp-mst
# figures of a kernel-doc comment, drm-kms.rst's and komeda-kms.rst's
# kernel-render DOT) and doc-guide (hello.dot, kernel-render DOT and SVG)
# are built; no link of theirs is broken, every graph is drawn without a
# warning, and each .dot file's SVG is the one dot -Tsvg writes, when
# dot(1) is installed. Skips (77) without Debian's linux-source-6.1.
# usage: kernel-graphs.sh QUIRE LINKCHECK
set -eu
quire=$(readlink -f "$1") linkcheck=$2
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -r "$tarball" ]; then
	echo "skip: $tarball not found (apt install linux-source-6.1)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=linux-source-6.1
tar -xJf "$tarball" -C "$tmp" "$tree/Documentation" "$tree/drivers/gpu" \
	"$tree/include" "$tree/scripts" 2>/dev/null || true
fail=0
for dir in gpu doc-guide; do
	QUIRE_NO_PROGRESS=1 "$quire" build --quiet \
		"$tmp/$tree/Documentation/$dir" -o "$tmp/$dir" 2>"$tmp/$dir.diag" ||
		{ tail -5 "$tmp/$dir.diag"; exit 1; }
	if grep -E 'kernel-graph|kernel-render' "$tmp/$dir.diag"; then
		echo "FAIL: $dir: a graph was not drawn"
		fail=1
	fi
	"$linkcheck" "$tmp/$dir" >"$tmp/$dir.links" 2>&1 || true
	if grep -E '\.(dot|svg)' "$tmp/$dir.links"; then
		echo "FAIL: $dir: a picture's link is broken"
		fail=1
	fi
	svgs=$(find "$tmp/$dir" -name '*.svg' ! -path '*/_static/*' | wc -l)
	echo "$dir: $svgs pictures; $(tail -1 "$tmp/$dir.links")"
done
for f in gpu/dp-mst/topology-figure-1 gpu/dp-mst/topology-figure-2 \
	gpu/dp-mst/topology-figure-3 doc-guide/hello; do
	svg=$tmp/${f%%/*}/${f#*/}.svg
	[ -s "$svg" ] || { echo "FAIL: no ${f#*/}.svg"; fail=1; continue; }
	if command -v dot >/dev/null; then
		dot -Tsvg "$tmp/$tree/Documentation/$f.dot" >"$tmp/ref.svg"
		cmp -s "$tmp/ref.svg" "$svg" ||
			{ echo "FAIL: ${f#*/}.svg is not dot -Tsvg's"; fail=1; }
	fi
done
[ "$fail" = 0 ] && echo "ok: every graph drawn, no picture's link broken"
exit "$fail"
