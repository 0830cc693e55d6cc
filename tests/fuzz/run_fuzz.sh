#!/bin/sh
# One fuzz target in the suite or by hand (scripts/fuzz.sh):
#   run_fuzz.sh FUZZER TARGET SECONDS [CORPUS_OUT]
# first every input of tests/fuzz/regress/TARGET once (crashes found
# before, kept so they stay fixed), and each directory of
# tests/fuzz/regress/TARGET-seq as one run of its inputs in order, then
# SECONDS of fuzzing from tests/fuzz/corpus/TARGET. New inputs go to
# CORPUS_OUT (default: a directory beside the fuzzer), the tree's corpus
# is only read. Prints
# PASS/FAIL lines for scripts/test_summary.py, the run's figures and the
# crash file, if any.
set -u
export LC_ALL=C
fuzzer=$1
target=$2
secs=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(dirname "$fuzzer")/fuzz-$target
out=${4:-$work/corpus}
mkdir -p "$out" "$work/artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
rc=0

# one process per input: each crash is named, none hides the next
regress=$(find "$here/regress/$target" -type f ! -name '*.md' 2>/dev/null |
	sort)
# regress/TARGET-seq/NAME/: inputs run in one process, in name order, for
# what a target keeps from one input to the next (fuzz_command's stacks)
seqs=$(find "$here/regress/$target-seq" -mindepth 1 -maxdepth 1 -type d \
	2>/dev/null | sort)
regress_one() {
	name=$1
	shift
	if "$fuzzer" -runs=1 "$@" > "$work/regress-$name.log" 2>&1; then
		echo "PASS fuzz_$target regress $name"
	else
		echo "FAIL fuzz_$target regress $name: $(grep -m 1 -E \
			'ERROR: AddressSanitizer|INVARIANT|runtime error|ERROR: libFuzzer' \
			"$work/regress-$name.log" | cut -c 1-160)"
		rc=1
	fi
}
for f in $regress; do
	regress_one "$(basename "$f")" "$f"
done
for d in $seqs; do
	regress_one "seq-$(basename "$d")" $(find "$d" -type f | sort)
done

if [ "$secs" -gt 0 ]; then
	"$fuzzer" -max_total_time="$secs" -timeout=25 -rss_limit_mb=4096 \
		-dict="$here/$target.dict" -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/" ${FUZZ_ARGS:-} \
		"$out" "$here/corpus/$target" > "$work/fuzz.log" 2>&1
	frc=$?
	last=$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		"$work/fuzz.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log")
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' \
		"$work/fuzz.log" | tail -n 1)
	summary="${secs} s, ${execs:-?} execs (${rate:-?}/s), cov ${cov:-?} ft ${ft:-?}"
	if [ $frc -eq 0 ]; then
		echo "PASS fuzz_$target $summary"
	else
		echo "FAIL fuzz_$target $summary: crash ${crash:-?} (log $work/fuzz.log)"
		grep -m 5 -E "ERROR|INVARIANT|#[0-9]+ in " "$work/fuzz.log"
		rc=1
	fi
fi
exit $rc
