#!/bin/sh
# Build listack (release, and with ASan+UBSan for the tests) and run the
# whole test suite: cmocka unit tests and the integration tests that run
# the real listack-fwd on pcap ports.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh build
scripts/setup.sh build-asan -Db_sanitize=address,undefined -Dbuildtype=debug

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
rc=0
meson test -C build-asan --print-errorlogs --num-processes 2 || rc=$?
/usr/bin/python3 scripts/test_summary.py build-asan/meson-logs/testlog.json || rc=1
exit $rc
