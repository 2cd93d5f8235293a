#!/bin/sh
# SPDX-License-Identifier: MIT
# A graph naming a file is not drawn, and the file is never opened: the
# DOT of a kernel-figure and of a kernel-render names a FIFO outside the
# docs root through image=, shapefile=, imagepath= and an HTML label's
# IMG (and 'image' spelt "ima" + "ge"); opening it would block, so a build that ends in time read none.
# dot(1), when installed, shows that graphviz itself would open it.
# usage: graph-safety.sh QUIRE
set -eu
quire=$(readlink -f "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo"
mkdir "$tmp/docs"
printf "project = 'Safety'\n" > "$tmp/docs/conf.py"
printf 'digraph g {\n\ta [image="%s"];\n}\n' "$tmp/fifo" > "$tmp/docs/image.dot"
printf 'digraph g {\n\ta [shape=custom, shapefile="%s"];\n}\n' "$tmp/fifo" \
	> "$tmp/docs/shape.dot"
printf 'digraph g {\n\tedge [label=<<TABLE><TR><TD><IMG SRC="%s"/></TD></TR></TABLE>>];\n\ta -> b;\n}\n' \
	"$tmp/fifo" > "$tmp/docs/label.dot"
# a name made of two quoted strings joined by "+" is still 'image'
printf 'digraph g {\n\ta ["ima" + "ge" = "%s"];\n}\n' "$tmp/fifo" \
	> "$tmp/docs/concat.dot"
cat > "$tmp/docs/index.rst" <<EOT
Safety
======

.. kernel-figure:: image.dot

.. kernel-figure:: shape.dot

.. kernel-figure:: label.dot

.. kernel-figure:: concat.dot

.. kernel-render:: DOT

   digraph g { imagepath="$tmp"; a [image="fifo"]; }
EOT
if command -v dot >/dev/null; then
	st=0
	timeout 5 dot -Tsvg "$tmp/docs/image.dot" >/dev/null 2>&1 || st=$?
	if [ "$st" -eq 124 ]; then
		echo "ok: dot(1) blocks on the FIFO: the case is real"
	else
		echo "note: dot(1) did not block on the FIFO (status $st)"
	fi
fi
status=0
timeout 60 "$quire" build --quiet "$tmp/docs" -o "$tmp/out" \
	2> "$tmp/diag" || status=$?
cat "$tmp/diag"
if [ "$status" -ne 0 ]; then
	echo "FAIL: quire exited with $status (124: it blocked on the FIFO)"
	exit 1
fi
for want in "image.dot:1:1: warning: graph not drawn: its attribute 'image' names a file" \
	"shape.dot:1:1: warning: graph not drawn: its attribute 'shapefile' names a file" \
	"label.dot:1:1: warning: graph not drawn: an HTML label's IMG names a file" \
	"concat.dot:1:1: warning: graph not drawn: its attribute 'image' names a file" \
	"index.rst:14:4: warning: graph not drawn: its attribute 'imagepath' names a file"; do
	grep -qF "$want" "$tmp/diag" ||
		{ echo "FAIL: no '$want'"; exit 1; }
done
if find "$tmp/out" -name '*.svg' ! -name favicon.svg | grep -q .; then
	echo "FAIL: a graph naming a file was drawn"
	exit 1
fi
grep -qF "$tmp/fifo" "$tmp/out/index.html" ||
	{ echo "FAIL: the page does not show the DOT"; exit 1; }
echo "ok: five graphs naming a FIFO refused, none opened it"
