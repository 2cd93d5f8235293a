#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzz every harness for SECONDS each (default 60) with libFuzzer, ASan
# and UBSan, in the build folder build-fuzz. New inputs go to
# build-fuzz/corpus/<target>; crashes to build-fuzz/crash-*. Copy the
# inputs worth keeping into test/fuzz/corpus/<target> so that the
# ordinary test run replays them.
#
# usage: test/fuzz/run.sh [SECONDS] [TARGET...]
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-source kdoc}
if [ ! -d build-fuzz ]; then
	CC=clang meson setup build-fuzz -Dfuzz=enabled -Darena_debug=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fsanitize=fuzzer-no-link
fi
ninja -C build-fuzz
for t in $targets; do
	mkdir -p build-fuzz/corpus/$t
	echo "fuzzing $t for $secs s"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	build-fuzz/test/fuzz/fuzz-$t -max_total_time="$secs" \
		-dict=test/fuzz/kdoc.dict -artifact_prefix=build-fuzz/ \
		-timeout=10 -rss_limit_mb=2048 \
		build-fuzz/corpus/$t test/fuzz/corpus/$t
done
