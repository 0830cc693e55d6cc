/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The node core itself is on the way in: rx, the ports' received frames
 * as the worker loop takes them (not a timed stage; port N's rx_dropped,
 * counted by the PMD, is its drop). The trace's first record is rx's
 * (core/trace.c claims there). tx, the way out, is declared in
 * core/tx.c.
 */
#include "core/stage.h"

LSK_STAGE_DECLARE(lsk_rx_node,
	.name = "rx", .id = LSK_STAGE_NONE,
	.next = LSK_NEXT("fwd_fast", "fwd6_fast", "eth_input"));
