#!/bin/sh
# Build the libFuzzer targets (clang, ASan+UBSan) in build-fuzz and run
# them: first the saved regressions of tests/fuzz/regress, then fuzzing.
#   scripts/fuzz.sh [--save] [TARGET|all] [SECONDS]   (default: all 60)
#   scripts/fuzz.sh --build-only
# TARGET is packet, command, ctl_proto, http or fpm. New inputs go to build-fuzz/tests/fuzz/
# fuzz-TARGET/corpus; --save then merges those that add coverage into the
# tree's corpus (tests/fuzz/corpus/TARGET), which is otherwise only read.
# FUZZ_ARGS adds libFuzzer options, e.g. FUZZ_ARGS="-fork=2
# -ignore_crashes=1" to go on past a crash in a long campaign.
set -eu
cd "$(dirname "$0")/.."

save=0
build_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--save) save=1 ;;
	--build-only) build_only=1 ;;
	*) break ;;
	esac
	shift
done
target=${1:-all}
secs=${2:-60}
case $target in
all) targets="packet command ctl_proto http fpm" ;;
packet|command|ctl_proto|http|fpm) targets=$target ;;
*) echo "usage: $0 [--save] [packet|command|ctl_proto|http|fpm|all] [SECONDS]" >&2; exit 2 ;;
esac

scripts/install-deps.sh

build=build-fuzz
if [ ! -f "$build/build.ninja" ]; then
	CC=clang-14 meson setup "$build" -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized >/dev/null
fi
# the fuzzers only: the rest of build-fuzz is never needed
ninja -C "$build" tests/fuzz/fuzz_packet tests/fuzz/fuzz_command \
	tests/fuzz/fuzz_ctl_proto tests/fuzz/fuzz_http tests/fuzz/fuzz_fpm \
	>/dev/null
echo "built $build (fuzz_packet, fuzz_command, fuzz_ctl_proto, fuzz_http," \
	"fuzz_fpm)"
[ $build_only -eq 1 ] && exit 0

rc=0
for t in $targets; do
	exe=$build/tests/fuzz/fuzz_$t
	tests/fuzz/run_fuzz.sh "$exe" "$t" "$secs" || rc=1
	if [ $save -eq 1 ]; then
		"$exe" -merge=1 "tests/fuzz/corpus/$t" \
			"$build/tests/fuzz/fuzz-$t/corpus" \
			> "$build/tests/fuzz/fuzz-$t/merge.log" 2>&1 || rc=1
		echo "merged into tests/fuzz/corpus/$t:" \
			"$(ls "tests/fuzz/corpus/$t" | wc -l) files"
	fi
done
exit $rc
