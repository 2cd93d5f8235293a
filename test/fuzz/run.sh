#!/bin/bash
# SPDX-License-Identifier: MIT
# Fuzz every libFuzzer harness for SECONDS each (default 60) with ASan and
# UBSan, in the build folder build-fuzz. A harness is any fuzz-NAME that
# -Dfuzz=enabled builds under build-fuzz/test/; its committed corpus is
# test/fuzz/corpus/NAME, or the corpus/ folder beside its source. New
# inputs go to build-fuzz/corpus/NAME, failing ones to build-fuzz/
# (crash-*, leak-*, timeout-*). A harness's dictionary is NAME.dict beside
# its corpus folder (test/fuzz/kdoc.dict for source and kdoc). Copy the inputs worth keeping into the
# committed corpus, so that the ordinary test run replays them.
#
# usage: test/fuzz/run.sh [SECONDS] [NAME...]
# Exit status: 0, or 1 when a harness found a failing input.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
[ $# -gt 0 ] && shift
if [ ! -d build-fuzz ]; then
	CC=clang meson setup build-fuzz -Dfuzz=enabled -Darena_debug=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fsanitize=fuzzer-no-link
fi
ninja -C build-fuzz
if [ $# -gt 0 ]; then
	names=("$@")
else
	mapfile -t names < <(find build-fuzz/test -type f -name 'fuzz-*' -perm -u+x |
		sed 's|.*/fuzz-||' | LC_ALL=C sort)
fi
failed=0
for t in "${names[@]}"; do
	exe=$(find build-fuzz/test -type f -name "fuzz-$t" | head -n 1)
	corpus=test/fuzz/corpus/$t
	[ -d "$corpus" ] || corpus=$(dirname "$(grep -rl --include=meson.build "fuzz-$t" test | head -n 1)")/corpus
	# The C harnesses share kdoc.dict; another brings NAME.dict beside
	# its corpus.
	dict=$(dirname "$corpus")/$t.dict
	case $t in source | kdoc) dict=test/fuzz/kdoc.dict ;; esac
	dictarg=()
	[ -f "$dict" ] && dictarg=(-dict="$dict")
	mkdir -p build-fuzz/corpus/$t
	echo "fuzzing $t for $secs s (corpus $corpus)"
	set +e
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	"$exe" -max_total_time="$secs" "${dictarg[@]}" \
		-artifact_prefix=build-fuzz/ -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=0 build-fuzz/corpus/$t "$corpus" 2>&1 |
		grep -E '^Done|ERROR|SUMMARY|^artifact_prefix|Test unit written'
	status=${PIPESTATUS[0]}
	set -e
	if [ "$status" -ne 0 ]; then
		echo "run.sh: fuzz-$t found a failing input (build-fuzz/crash-*)" >&2
		failed=1
	fi
done
exit $failed
