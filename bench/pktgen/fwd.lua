-- SPDX-License-Identifier: BSD-3-Clause
-- Pktgen-DPDK command file for bench/pktgen/run.sh: port 0 sends UDP/IPv4
-- to the device under test, which forwards it back to port 1. run.sh
-- writes run.lua, which sets the table `lsk` and runs this file:
--   lsk.size, lsk.rate (percent; 100 on memif: as fast as it can),
--   lsk.seconds (the measured window), lsk.warmup (ms before it),
--   lsk.dst_mac (the device's port 0), lsk.src_ip (CIDR), lsk.dst_ip,
--   lsk.sport, lsk.dport, lsk.link_wait (ms), lsk.out (a directory).
-- It talks to run.sh through files in lsk.out, each written whole:
--   ports-started: pktgen's ports are started (run.sh starts the device);
--   links-up: both links are up;
--   window-start, window-end: the measured window's bounds (run.sh reads
--             the device's counters at each);
--   stopped: port 0 stopped and 2 s passed (the stats thread read the
--             ports twice since): pktgen's final counters, as JSON;
--   then it waits for run.sh's "ack" (the device's final counters read)
--   before it quits, so no frame is in flight when either side reads.
-- Every file is JSON; result.json holds what pktgen measured.

local function put(name, text)
	local f = assert(io.open(lsk.out .. "/" .. name .. ".tmp", "w"))
	f:write(text)
	f:close()
	assert(os.rename(lsk.out .. "/" .. name .. ".tmp", lsk.out .. "/" .. name))
end

local function exists(name)
	local f = io.open(lsk.out .. "/" .. name, "r")
	if f then f:close() end
	return f ~= nil
end

local keys = { "opackets", "ipackets", "imissed", "ierrors", "oerrors",
	       "rx_nombuf" }

local function counters(kind)
	local s = pktgen.portStats("all", kind)
	local out = {}
	for p = 0, 1 do
		local one = {}
		for _, k in ipairs(keys) do
			one[#one + 1] = string.format('"%s": %d', k, s[p][k] or 0)
		end
		out[#out + 1] = "{" .. table.concat(one, ", ") .. "}"
	end
	return "[" .. table.concat(out, ", ") .. "]"
end

local function up(p)
	return string.find(pktgen.linkState(p)[tonumber(p)], "UP", 1, true) ~= nil
end

-- pktgen runs this file once its ports are started: the device, a memif
-- client, may connect now (before, a server answers "ID 0 not found"
-- and the client does not retry)
put("ports-started", "{}")
local waited = 0
while not (up("0") and up("1")) do
	if waited >= lsk.link_wait then
		put("result.json", '{"error": "links not up after ' ..
		    lsk.link_wait .. ' ms"}')
		pktgen.quit()
		return
	end
	pktgen.delay(100)
	waited = waited + 100
end
put("links-up", "{}")

pktgen.set("0", "size", lsk.size)
pktgen.set("0", "rate", lsk.rate)
pktgen.set("0", "count", 0)
pktgen.set("0", "sport", lsk.sport)
pktgen.set("0", "dport", lsk.dport)
pktgen.set_proto("0", "udp")
pktgen.set_mac("0", "dst", lsk.dst_mac)
pktgen.set_ipaddr("0", "src", lsk.src_ip)
pktgen.set_ipaddr("0", "dst", lsk.dst_ip)
pktgen.clr()
pktgen.delay(1100)

pktgen.start("0")
pktgen.delay(lsk.warmup)
-- each "rate" sample is one second of the stats thread's own count
local start = counters("port")
put("window-start", start)
local tx, rx = {}, {}
for i = 1, lsk.seconds do
	pktgen.delay(1000)
	local r = pktgen.portStats("all", "rate")
	tx[#tx + 1] = string.format("%d", r[0].opackets)
	rx[#rx + 1] = string.format("%d", r[1].ipackets)
end
local finish = counters("port")
put("window-end", finish)
pktgen.stop("0")
pktgen.delay(2100)
local final = counters("port")
put("result.json", string.format(
	'{"seconds": %d, "size": %d, "rate": %d, "tx_per_s": [%s], ' ..
	'"rx_per_s": [%s], "start": %s, "end": %s, "final": %s}',
	lsk.seconds, lsk.size, lsk.rate, table.concat(tx, ", "),
	table.concat(rx, ", "), start, finish, final))
put("stopped", final)
waited = 0
while not exists("ack") and waited < lsk.link_wait do
	pktgen.delay(100)
	waited = waited + 100
end
pktgen.quit()
