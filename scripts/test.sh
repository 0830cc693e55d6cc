#!/bin/sh
# Build listack (release, and with ASan+UBSan for the tests) and run the
# whole test suite: cmocka unit tests, the integration tests that run
# the real listack-fwd on pcap ports, the fuzz targets (build-fuzz), the
# example against an installed listack and the Debian packages.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh build
scripts/setup.sh build-asan -Db_sanitize=address,undefined -Dbuildtype=debug

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
rc=0
meson test -C build-asan --print-errorlogs --num-processes 2 || rc=$?
# the libFuzzer targets (clang): their saved regressions, then 60 s each
scripts/fuzz.sh --build-only
meson test -C build-fuzz --no-rebuild --suite fuzz --print-errorlogs \
	--num-processes 2 || rc=$?
# the example application, built against an installed listack
scripts/test_install.sh > build-asan/test-install.log 2>&1 || rc=1
tail -n 3 build-asan/test-install.log
# the Debian packages: built, installed, run, purged (as root)
scripts/test_package.sh > build-asan/test-package.log 2>&1 || rc=1
tail -n 3 build-asan/test-package.log
/usr/bin/python3 scripts/test_summary.py build-asan/meson-logs/testlog.json \
	build-fuzz/meson-logs/testlog.json build-asan/test-install.log \
	build-asan/test-package.log || rc=1
exit $rc
