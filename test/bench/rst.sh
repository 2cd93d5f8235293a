#!/bin/bash
# SPDX-License-Identifier: MIT
# Speed of quire's reST reader against docutils' parser on the whole
# Documentation/ of linux-source-6.1 (every .rst file): quire's rst-dump
# -q (parse only) against docutils.core.publish_doctree() with the
# transforms docutils always runs, and against docutils' bare parser
# (test/rst/docutils_tree.py's, no transforms: the tree quire builds).
# Each runs RUNS times (default 3) on one processor; prints the median
# wall time of each and the ratios. Not part of the test suite: timing
# stays out of the tests.
#
# usage: test/bench/rst.sh [-q RST_DUMP] [-t TREE] [-n RUNS]
#   RST_DUMP  the driver (default: build/test/rst/rst-dump)
#   TREE      an unpacked kernel tree (default: the Debian tarball's
#             Documentation/, unpacked once into build-bench/)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
dump=$root/build/test/rst/rst-dump
tree=
runs=3
while getopts q:t:n: opt; do
	case $opt in
	q) dump=$(realpath "$OPTARG") ;;
	t) tree=$(realpath "$OPTARG") ;;
	n) runs=$OPTARG ;;
	*) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
[ -x "$dump" ] || { echo "rst.sh: no rst-dump at $dump (ninja -C build)" >&2; exit 2; }
python3 -c 'import docutils' 2>/dev/null ||
	{ echo "rst.sh: needs python3-docutils" >&2; exit 2; }
if [ -z "$tree" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f $tarball ] || { echo "rst.sh: $tarball is absent (apt-get install linux-source-6.1)" >&2; exit 2; }
	tree=$root/build-bench/linux-source-6.1
	if [ ! -f "$tree/.unpacked-doc" ]; then
		echo "unpacking Documentation/ of $tarball into $root/build-bench ..."
		mkdir -p "$root/build-bench"
		tar -xJf $tarball -C "$root/build-bench" --wildcards 'linux-source-6.1/Documentation/*'
		touch "$tree/.unpacked-doc"
	fi
fi
cd "$tree/Documentation"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
find . -name '*.rst' | sed 's|^\./||' | LC_ALL=C sort > "$out/files"
nfiles=$(wc -l < "$out/files")
mb=$(xargs -a "$out/files" -d '\n' cat | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')
echo "linux-source-6.1 Documentation/: $nfiles .rst files, $mb MB"
xargs -a "$out/files" -d '\n' cat > /dev/null

cat > "$out/doctree.py" <<'PY'
import sys, warnings
warnings.simplefilter('ignore')
import docutils.core
bare = sys.argv[1] == 'parser'
if bare:
    sys.path.insert(0, sys.argv[2])
    import docutils_tree
    docutils_tree.install()
files = open(sys.argv[3]).read().split('\n')
settings = {'report_level': 5, 'halt_level': 5, 'file_insertion_enabled': False}
for f in files:
    if not f:
        continue
    text = open(f, encoding='utf-8', errors='replace').read()
    try:
        if bare:
            docutils_tree.tree(f, text)
        else:
            docutils.core.publish_doctree(text, source_path=f,
                                          settings_overrides=settings)
    except Exception:
        pass
PY

# median NAME CMD...: run RUNS times, print and remember the median wall.
median() {
	local name=$1
	shift
	local times=()
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(date +%s.%N)
		taskset -c 0 "$@" > /dev/null 2>&1 || true
		t1=$(date +%s.%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
	done
	local m
	m=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	printf '%-34s median %8.3f s   (runs: %s)\n' "$name" "$m" "${times[*]}"
	eval "t_${name//[^a-z]/_}=$m"
}

median quire "$dump" -q $(cat "$out/files")
median docutils-parser python3 "$out/doctree.py" parser "$root/test/rst" "$out/files"
median docutils-publish-doctree python3 "$out/doctree.py" doctree "$root/test/rst" "$out/files"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "inf" }'; }
echo
echo "quire vs docutils' parser:          $(ratio "$t_docutils_parser" "$t_quire") faster"
echo "quire vs publish_doctree():         $(ratio "$t_docutils_publish_doctree" "$t_quire") faster"
