#!/bin/bash
# SPDX-License-Identifier: MIT
# Speed of quire's reST reader against docutils' parser on the whole
# Documentation/ of linux-source-6.1 (every .rst file): quire's rst-dump
# -q (parse only) against docutils.core.publish_doctree() with the
# transforms docutils always runs, and against docutils' bare parser
# (test/rst/docutils_tree.py's, no transforms: the tree quire builds).
# With -s, the whole site instead: Sphinx builds Documentation/SUBDIR as
# "make htmldocs SPHINXDIRS=SUBDIR" does (sphinx-build with the kernel's
# conf.py and scripts/kernel-doc), and quire builds the same unmodified
# folder (quire build Documentation/SUBDIR), one after the other in the
# same run, one job each, twice: clean (nothing kept from a build before:
# no doctrees, no cache) and warm (the output folder removed, Sphinx's
# doctrees and quire's cache kept from a first, untimed build); prints
# the median wall time, CPU time and peak memory of each and the ratios,
# then quire's time for the whole Documentation/. Each runs RUNS times
# (default 3) on one processor.
# Not part of the test suite: timing stays out of the tests.
#
# usage: test/bench/rst.sh [-q RST_DUMP] [-b QUIRE] [-t TREE] [-n RUNS]
#                          [-s SUBDIR]...
#   RST_DUMP  the driver (default: build/test/rst/rst-dump)
#   QUIRE     the quire binary for -s (default: build/cmd/quire/quire)
#   TREE      an unpacked kernel tree (default: the Debian tarball,
#             unpacked once into build-bench/: Documentation/, or the
#             whole tree for -s)
#   SUBDIR    a folder of Documentation/ to build both ways (core-api,
#             driver-api, ...); repeat for several. Needs python3-sphinx.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
dump=$root/build/test/rst/rst-dump
tree=
quire=$root/build/cmd/quire/quire
runs=3
subdirs=()
while getopts q:b:t:n:s: opt; do
	case $opt in
	q) dump=$(realpath "$OPTARG") ;;
	b) quire=$(realpath "$OPTARG") ;;
	t) tree=$(realpath "$OPTARG") ;;
	n) runs=$OPTARG ;;
	s) subdirs+=("$OPTARG") ;;
	*) sed -n '2,30s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "inf" }'; }

# The median of the numbers on stdin.
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The CPU seconds (user + system) of this shell's finished children, to
# the millisecond, as the shell's own "times" wrote them into FILE (GNU
# time's %U and %S print hundredths only, too coarse for quire's tenth of
# a second). "times" must run in this shell, not in a $(...) subshell.
children_cpu() {
	awk 'NR == 2 { n = split($0, f, /[ms ]+/); s = 0
		for (i = 1; i + 1 <= n; i += 2) s += f[i] * 60 + f[i + 1]
		printf "%.3f", s }' "$1"
}

# aside DIR: move DIR out of the way, into $out/aside/, removed when the
# bench ends. Not removed now: on ext4 without a journal (as on the
# machines this bench has run on), every file created in the minutes
# after a removal first looks at each inode removed in that time, so a
# folder removed just before a run slows the files the run creates, the
# more the more the bench has removed (quire's warm core-api took half
# as long again).
aside() {
	[ -e "$1" ] || return 0
	mkdir -p "$out/aside"
	mv "$1" "$(mktemp -d "$out/aside/XXXXXX")/"
}

# sitebench NAME CMD...: run RUNS times on one processor; print the
# medians and set w_NAME, u_NAME (s) and m_NAME (KB). Wall time from the
# shell's clock ($EPOCHREALTIME, microseconds), CPU time from the shell's
# children's, peak memory from /usr/bin/time.
sitebench() {
	local name=$1 i t0 t1 c0 c1 ws=() us=() ms=()
	shift
	for i in $(seq "$runs"); do
		aside "$out/$name"
		times > "$out/times0"
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%M' -o "$out/time" \
			taskset -c 0 "$@" > "$out/$name.log" 2>&1 ||
			{ echo "rst.sh: $name failed, see its log:" >&2; tail -5 "$out/$name.log" >&2; exit 1; }
		t1=$EPOCHREALTIME
		times > "$out/times1"
		c0=$(children_cpu "$out/times0")
		c1=$(children_cpu "$out/times1")
		read -r m < "$out/time"
		ws+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
		us+=("$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.3f", b - a }')")
		ms+=("$m")
	done
	w=$(printf '%s\n' "${ws[@]}" | med)
	u=$(printf '%s\n' "${us[@]}" | med)
	m=$(printf '%s\n' "${ms[@]}" | med)
	printf '  %-7s wall %8.3f s   cpu %8.3f s   peak %7.0f MB   (wall runs: %s)\n' \
		"$name" "$w" "$u" "$((m / 1024))" "${ws[*]}"
	eval "w_$name=$w u_$name=$u m_$name=$m"
}

# unpack doc|all: the Debian tarball's Documentation/, or all of it,
# once into build-bench/; sets tree.
unpack() {
	local tarball=/usr/src/linux-source-6.1.tar.xz what=()
	[ -f $tarball ] || { echo "rst.sh: $tarball is absent (apt-get install linux-source-6.1)" >&2; exit 2; }
	tree=$root/build-bench/linux-source-6.1
	[ -f "$tree/.unpacked-$1" ] && return
	[ "$1" = all ] || what=(--wildcards 'linux-source-6.1/Documentation/*')
	echo "unpacking $1 of $tarball into $root/build-bench ..."
	mkdir -p "$root/build-bench"
	tar -xJf $tarball -C "$root/build-bench" "${what[@]}"
	touch "$tree/.unpacked-$1"
	[ "$1" = doc ] || touch "$tree/.unpacked-doc"
}

if [ ${#subdirs[@]} -gt 0 ]; then
	command -v sphinx-build > /dev/null ||
		{ echo "rst.sh: -s needs sphinx-build (apt-get install python3-sphinx)" >&2; exit 2; }
	[ -x "$quire" ] || { echo "rst.sh: no quire at $quire (ninja -C build)" >&2; exit 2; }
	[ -n "$tree" ] || unpack all
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	cd "$tree"
	echo "Sphinx $(sphinx-build --version | awk '{ print $2 }') and quire, one job each, median of $runs runs"
	for d in "${subdirs[@]}"; do
		[ -d "Documentation/$d" ] || { echo "rst.sh: no Documentation/$d in $tree" >&2; exit 2; }
		echo "Documentation/$d ($(find "Documentation/$d" -name '*.rst' | wc -l) .rst files):"
		# clean builds: nothing kept from a run before (Sphinx's
		# doctrees live in its output folder, removed before each run)
		echo " clean (no doctrees, no cache):"
		sitebench sphinx sphinx-build -j1 -q -b html -c "$tree/Documentation" \
			-d "$out/sphinx/.doctrees" -D kerneldoc_srctree="$tree" \
			-D kerneldoc_bin="$tree/scripts/kernel-doc" \
			"$tree/Documentation/$d" "$out/sphinx"
		sitebench quire "$quire" build "Documentation/$d" -o "$out/quire" \
			-j1 --no-cache --quiet
		echo "  quire is $(ratio "$w_sphinx" "$w_quire") faster (wall)," \
			"$(ratio "$u_sphinx" "$u_quire") (cpu), uses" \
			"$(ratio "$m_sphinx" "$m_quire") less memory"
		# warm: the output folder removed, what each keeps between
		# builds kept from a first, untimed build (Sphinx's doctrees,
		# quire's cache), so every page is written again from it
		echo " warm (the output removed, Sphinx's doctrees and quire's cache kept):"
		aside "$out/doctrees-warm"
		aside "$out/cache-warm"
		sx=(sphinx-build -j1 -q -b html -c "$tree/Documentation"
			-d "$out/doctrees-warm" -D kerneldoc_srctree="$tree"
			-D kerneldoc_bin="$tree/scripts/kernel-doc"
			"$tree/Documentation/$d" "$out/sphinx_warm")
		qu=("$quire" build "Documentation/$d" -o "$out/quire_warm"
			--cache "$out/cache-warm" -j1 --quiet)
		"${sx[@]}" > /dev/null 2>&1
		"${qu[@]}" > /dev/null 2>&1
		sitebench sphinx_warm "${sx[@]}"
		sitebench quire_warm "${qu[@]}"
		echo "  quire is $(ratio "$w_sphinx_warm" "$w_quire_warm") faster (wall)," \
			"$(ratio "$u_sphinx_warm" "$u_quire_warm") (cpu)"
		aside "$out/doctrees-warm"
		aside "$out/cache-warm"
	done
	# and the whole tree, which Sphinx takes about half an hour for
	echo "Documentation/ ($(find Documentation -name '*.rst' | wc -l) .rst files), quire alone:"
	sitebench quire "$quire" build Documentation -o "$out/quire" \
		-j1 --no-cache --quiet
	exit 0
fi
[ -x "$dump" ] || { echo "rst.sh: no rst-dump at $dump (ninja -C build)" >&2; exit 2; }
python3 -c 'import docutils' 2>/dev/null ||
	{ echo "rst.sh: needs python3-docutils" >&2; exit 2; }
[ -n "$tree" ] || unpack doc
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
echo
echo "quire vs docutils' parser:          $(ratio "$t_docutils_parser" "$t_quire") faster"
echo "quire vs publish_doctree():         $(ratio "$t_docutils_publish_doctree" "$t_quire") faster"
