# SPDX-License-Identifier: BSD-3-Clause
# dut_stop_pid: stop the device under test $dut_pid for bench/compare.sh
# and bench/latency.sh (sourced by both): SIGTERM (each device stops on
# it as on SIGINT, which a background job of sh ignores), SIGKILL after
# 10 s; its exit status in $drc, $dut_pid emptied.
dut_stop_pid() {
	kill -TERM "$dut_pid" 2>/dev/null || true
	i=0
	while kill -0 "$dut_pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$dut_pid" 2>/dev/null || true
	drc=0
	wait "$dut_pid" 2>/dev/null || drc=$?
	dut_pid=""
}
