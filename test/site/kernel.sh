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
"$linkcheck" "$tmp/site" >"$tmp/links" 2>&1 || { tail -20 "$tmp/links"; exit 1; }
tail -3 "$tmp/links"
# navigation at kernel scale: a bounded sidebar on every page, no page of
# the general index over 300 KB, folder pages with their files' briefs
python3 - "$tmp/site" <<'PY' || exit 1
import os, re, sys
site = sys.argv[1]
worst, where = 0, None
for d, _, names in os.walk(site):
    for n in names:
        if not n.endswith('.html'):
            continue
        p = os.path.join(d, n)
        s = open(p, encoding='utf-8', errors='replace').read()
        i = s.find('class="qu-nav"')
        nav = s[i:s.find('</nav>', i)] if i >= 0 else ''
        k = nav.count('<a ')
        if k > worst:
            worst, where = k, os.path.relpath(p, site)
        if n.startswith('genindex') and os.path.getsize(p) > 300 * 1024:
            sys.exit('%s is %d KB, over 300 KB' % (n, os.path.getsize(p) // 1024))
print('most sidebar links on a page: %d (%s)' % (worst, where))
if worst > 150:
    sys.exit('a sidebar of %d links' % worst)
f = open(os.path.join(site, 'include/linux/index.html')).read()
briefs = len(re.findall(r'class="qu-brief">[^<]+<', f))
print('include/linux/: %d files listed with a brief' % briefs)
if briefs < 400:
    sys.exit('include/linux/index.html lists only %d briefs' % briefs)
PY
