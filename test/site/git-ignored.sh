#!/bin/sh
# SPDX-License-Identifier: MIT
# A tree in a folder another work tree ignores (a kernel tarball unpacked
# under a project's build/) takes neither that project's version nor its
# root; a tree that is tracked shows its git describe.
# usage: git-ignored.sh QUIRE
set -eu
quire=$(readlink -f "$1")
command -v git >/dev/null || { echo "skip: git not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q repo
cd repo
printf '/build/\n' > .gitignore
mkdir -p build/tree src
printf '/**\n * f() - do f\n */\nvoid f(void);\n' > build/tree/a.h
cp build/tree/a.h src/a.h
git add .gitignore src
git -c user.name=t -c user.email=t@t commit -qm one
git tag v1.0
"$quire" build --quiet build/tree -o "$tmp/ignored"
"$quire" build --quiet src -o "$tmp/tracked"
if grep -q 'qu-version' "$tmp/ignored/index.html"; then
	echo "FAIL: an ignored tree shows the outer repository's version"
	exit 1
fi
grep -q '>v1.0<' "$tmp/tracked/index.html" ||
	{ echo "FAIL: a tracked tree lacks its git describe (v1.0)"; exit 1; }
echo "ok: ignored tree without a version, tracked tree at v1.0"
