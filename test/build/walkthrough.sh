#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/kernel-tree.md, step by step, on the part of linux-source-6.1 that
# `quire init` names: init, ninja twice (the second does nothing), an edit
# to a comment in include/linux/list.h (ninja reruns quire, which renders
# one page), and init refusing to overwrite. Skips (77) without Debian's
# linux-source-6.1 or ninja.
# usage: walkthrough.sh QUIRE
set -eu
quire=$(readlink -f "$1")
tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "skip: $tarball not found (apt install linux-source-6.1)"; exit 77; }
command -v ninja >/dev/null || { echo "skip: no ninja"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export QUIRE_NO_PROGRESS=1
cd "$tmp"
tar -xJf "$tarball" linux-source-6.1/MAINTAINERS linux-source-6.1/README \
	linux-source-6.1/include/linux/list.h linux-source-6.1/include/linux/slab.h \
	linux-source-6.1/include/linux/string.h linux-source-6.1/include/linux/kref.h \
	linux-source-6.1/include/linux/workqueue.h linux-source-6.1/mm/slab_common.c \
	linux-source-6.1/lib/string.c linux-source-6.1/kernel/workqueue.c
cd linux-source-6.1

fail() { echo "FAIL: $*"; exit 1; }

# 2. a docs folder
"$quire" init --ninja quire-docs > init.out
for f in quire.yml index.md build.ninja; do
	grep -qx "wrote quire-docs/$f" init.out || fail "init did not write $f"
done
grep -q '^srctree: \.\.$' quire-docs/quire.yml || fail "no srctree in quire.yml"
grep -q '{kernel-doc} include/linux/list.h' quire-docs/index.md ||
	fail "index.md does not pull list.h"
cp quire-docs/index.md index.before
if "$quire" init --ninja quire-docs 2>init.err; then fail "init overwrote"; fi
grep -q 'already has a docs setup' init.err || fail "init: $(cat init.err)"
cmp -s index.before quire-docs/index.md || fail "init changed index.md"
echo "ok: init writes three files and refuses to overwrite"

# 3. build
ninja -C quire-docs > n1.out 2>&1 || { cat n1.out; fail "first ninja"; }
site=quire-docs/_build/site
[ -f "$site/index.html" ] || fail "no $site/index.html"
grep -q 'id="c.list_add"' "$site/index.html" || fail "list_add is not on the page"
grep -q 'id="c.kmalloc"' "$site/index.html" || fail "kmalloc is not on the page"
ninja -C quire-docs > n2.out 2>&1
grep -q 'no work to do' n2.out || { cat n2.out; fail "second ninja did work"; }
echo "ok: ninja builds, then has no work to do"

sed -i 's/^ \* list_add - add a new entry$/ * list_add - add a new entry, edited/' \
	include/linux/list.h
grep -q 'add a new entry, edited' include/linux/list.h || fail "test edit"
ninja -C quire-docs > n3.out 2>&1 || { cat n3.out; fail "third ninja"; }
grep -q 'quire build' n3.out || { cat n3.out; fail "the edit did not rerun quire"; }
grep -q 'add a new entry, edited' "$site/index.html" || fail "the edit is not on the page"
ninja -C quire-docs > n4.out 2>&1
grep -q 'no work to do' n4.out || fail "ninja after the edit did work"
echo "ok: an edit to list.h reruns quire, once"

# the same build by hand, as build.ninja runs it, says what it did. The
# stamp would stop it at once when every input is older than the second
# the last build started in (whether it is depends on how fast the lines
# above ran), so it goes, and the build must find its answers in the cache.
rm -f quire-docs/_build/.quire-cache/stamp-*
out=$(cd quire-docs && "$quire" build . -o _build/site 2>&1 >/dev/null | tail -1)
case $out in
"quire build: 0 pages rendered, 1 kept, 0 removed; 0 of 8 sources parsed") ;;
*) fail "summary: $out" ;;
esac
echo "ok: a rebuild keeps the unchanged page"
