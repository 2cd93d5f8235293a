#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The same API reference built two ways, timed in one run: Sphinx with the
# kernel's kernel-doc extension (scripts/kernel-doc behind every
# ".. kernel-doc::" directive), and quire build with a {kernel-doc}
# directive per page. Both get one page per source file over the same
# files, so the figures compare like with like. Prints wall and CPU time,
# peak memory and the ratio. Not part of the test suite.
#
# usage: test/bench/sphinx.sh QUIRE_BINARY [SUBDIR...]
#   SUBDIR: folders of the kernel tree whose documented .c/.h files to take
#           (default: include/linux kernel lib mm)
# Needs linux-source-6.1 (Debian) and python3-sphinx.
set -eu
quire=$(readlink -f "$1"); shift
[ $# -gt 0 ] || set -- include/linux kernel lib mm
tarball=/usr/src/linux-source-6.1.tar.xz
command -v sphinx-build >/dev/null || { echo "sphinx.sh: needs sphinx-build (apt-get install python3-sphinx)" >&2; exit 2; }
[ -f "$tarball" ] || { echo "sphinx.sh: needs $tarball (apt-get install linux-source-6.1)" >&2; exit 2; }

work=${QUIRE_BENCH_DIR:-${TMPDIR:-/tmp}/quire-bench}
tree=$work/linux-source-6.1
if [ ! -d "$tree/scripts" ]; then
	mkdir -p "$work"
	echo "extracting $tarball into $work ..." >&2
	tar -xJf "$tarball" -C "$work"
fi

sx=$work/sphinx-src q=$work/quire-src
rm -rf "$sx" "$q" "$work/sphinx-out" "$work/quire-out"
mkdir -p "$sx" "$q"
(cd "$tree" && grep -rl --include='*.[ch]' '^/\*\*' "$@" | sort) > "$work/files.txt"
nfiles=$(wc -l < "$work/files.txt")

# One page per file for each tool, and an index with a table of contents.
cat > "$sx/conf.py" <<PY
import sys
sys.path.insert(0, '$tree/Documentation/sphinx')
extensions = ['kerneldoc']
kerneldoc_bin = '$tree/scripts/kernel-doc'
kerneldoc_srctree = '$tree'
project = 'bench'
html_theme = 'alabaster'
PY
printf 'title: bench\nsrctree: %s\n' "$tree" > "$q/quire.yml"
{ printf 'API\n===\n\n.. toctree::\n   :maxdepth: 1\n\n'; } > "$sx/index.rst"
{ printf '# API\n\n```{toctree}\n:maxdepth: 1\n\n'; } > "$q/index.md"
i=0
while read -r f; do
	i=$((i + 1))
	printf '%s\n%s\n\n.. kernel-doc:: %s\n' "$f" "$(printf '%s' "$f" | tr -c '\n' '=')" "$f" > "$sx/p$i.rst"
	printf '# %s\n\n```{kernel-doc} %s\n```\n' "$f" "$f" > "$q/p$i.md"
	printf '   p%d\n' "$i" >> "$sx/index.rst"
	printf 'p%d.md\n' "$i" >> "$q/index.md"
done < "$work/files.txt"
printf '```\n' >> "$q/index.md"

run() {
	local name=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" > "$work/$name.log" 2>&1 || true
	read -r wall user sys rss < "$work/$name.time"
	cpu=$(awk "BEGIN { print $user + $sys }")
	printf '%-22s wall %8.2f s   cpu %8.2f s   peak %7d MB\n' "$name" "$wall" "$cpu" $((rss / 1024))
	eval "${name//[^a-z]/_}_wall=$wall"
}

echo "$nfiles source files from: $*"
run sphinx-build sphinx-build -q -b html -j auto "$sx" "$work/sphinx-out"
run quire-build "$quire" build --quiet "$q" -o "$work/quire-out"
echo "quire build is $(awk "BEGIN { printf \"%.1f\", $sphinx_build_wall / ($quire_build_wall > 0 ? $quire_build_wall : 0.01) }")x faster in wall time"
printf 'pages: sphinx %d, quire %d\n' \
	"$(find "$work/sphinx-out" -name 'p*.html' | wc -l)" \
	"$(find "$work/quire-out" -name 'p*.html' | wc -l)"
