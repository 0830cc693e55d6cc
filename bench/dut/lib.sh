# SPDX-License-Identifier: BSD-3-Clause
# What bench/compare.sh and bench/latency.sh share (sourced by both).

# cmd_line WORDS...: the command as commands.sh keeps it, words with a
# parenthesis quoted (--lcores (0,1)@1, l3fwd's --config (0,0,1)) so that
# the line pastes into a shell as it ran.
cmd_line() {
	printf '%s\n' "$*" | sed "s/\([^ ]*[()][^ ]*\)/'\1'/g"
}

# dut_stop_pid: stop the device under test $dut_pid: SIGTERM (each device
# stops on it as on SIGINT, which a background job of sh ignores), SIGKILL
# after 10 s; its exit status in $drc, $dut_pid emptied.
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
