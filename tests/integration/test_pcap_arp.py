#!/usr/bin/python3
"""pcap integration tests of listack-fwd: ARP: answers, malformed frames,
learning and the hold queue.

    /usr/bin/python3 tests/integration/test_pcap_arp.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import A_MAC, BCAST_MAC, B_MAC, P0_MAC, P1_MAC, frame  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (Part, _arp_in, _arp_req_answered, case, fwd, ipdrop,  # noqa: E402
                          l2drop, unresolved)
from scapy.layers.l2 import ARP, Dot1Q, Ether  # noqa: E402


# ======================================================================

# ======================================================================
# ARP (main: answers and malformed; group arp: learning and the hold
# queue, one run per case since they depend on which frames share a burst)

def _arp_bad(**kw):
    """A malformed ARP frame: arp.InErrors, nothing else."""
    def b(n):
        a = dict(op=1, hwsrc=A_MAC, psrc="10.0.0.1", pdst="10.0.0.254")
        a.update({k: v for k, v in kw.items() if k != "cut"})
        fr = bytes(Ether(dst=BCAST_MAC, src=A_MAC) / ARP(**a))
        if "cut" in kw:
            fr = fr[:kw["cut"]]
        return Part([(0, fr)], [], {"arp.InErrors": 1})
    return b


# a request for our address from a static neighbour: answered (no update
# of a static entry)
def arp_answered(port):
    return _arp_req_answered(port, lsk.PORT_IP[port])


case("l2_arp_request_answered", "main", lambda n: arp_answered(0))
case("l2_arp_request_answered_p1", "main", lambda n: arp_answered(1))
case("l2_arp_request_not_ours", "main", lambda n: Part(
    [(0, lsk.arp_request(0, target="10.0.0.77"))], [],
    {"arp.InRequests": 1}))
# arp_ignore=0: any of our addresses, on any port
case("arp_request_other_port_address", "main",
     lambda n: _arp_req_answered(0, "10.0.1.254"))
case("arp_request_p1_for_p0_address", "main",
     lambda n: _arp_req_answered(1, "10.0.0.254"))
# (new hosts asking for our address are learnt: arp.Updates)
case("arp_request_unicast_to_our_mac", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", eth_dst=P0_MAC,
                                 psrc="10.0.0.2", hwsrc="02:00:00:00:00:02",
                                 learnt=True))
case("arp_request_padded_reply_42_bytes", "main",
     lambda n: _arp_req_answered(1, "10.0.1.254", pad=60, psrc="10.0.1.3",
                                 hwsrc="02:00:00:00:01:03", learnt=True))
# a sender outside the port's subnets is answered but not learnt
case("arp_request_foreign_sender_answered", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", psrc="10.0.1.50",
                                 hwsrc="02:00:00:00:01:50"))
# RFC 5227 probe (sender 0.0.0.0): answered to its MAC, target 0.0.0.0
case("arp_dad_probe_answered", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", psrc="0.0.0.0",
                                 hwsrc="02:00:00:00:00:33"))
# a priority-tagged request (VLAN 0 = untagged): answered untagged
case("arp_request_prio_tagged_answered", "main", lambda n: Part(
    [(0, bytes(Ether(dst=BCAST_MAC, src="02:00:00:00:00:04") /
               Dot1Q(vlan=0, prio=6) /
               ARP(op=1, hwsrc="02:00:00:00:00:04", psrc="10.0.0.4",
                   pdst="10.0.0.254")))],
    [(0, lsk.arp_reply_from_us(0, "10.0.0.254", "10.0.0.4",
                               "02:00:00:00:00:04"))],
    {"arp.InRequests": 1, "arp.OutReplies": 1, "arp.Updates": 1}))
case("arp_request_foreign_mac_not_for_us", "main", lambda n: l2drop(
    _arp_in(0, 1, "10.0.0.1", "10.0.0.254", A_MAC,
            eth_dst="02:00:00:00:99:98"), "NotForUs"))
case("arp_reply_unsolicited_unknown_ignored", "main", lambda n: Part(
    [(1, _arp_in(1, 2, "10.0.1.40", "10.0.1.254", "02:00:00:00:01:40",
                 hwdst=P1_MAC, eth_dst=P1_MAC))], [],
    {"arp.InReplies": 1}))
case("arp_malformed_hwtype", "main", _arp_bad(hwtype=6))
case("arp_malformed_ptype", "main", _arp_bad(ptype=0x86DD))
case("arp_malformed_hwlen", "main", _arp_bad(hwlen=8))
case("arp_malformed_plen", "main", _arp_bad(plen=16))
case("arp_malformed_opcode", "main", _arp_bad(op=3))
case("arp_malformed_truncated", "main", _arp_bad(cut=14 + 20))

MAC7 = "02:00:00:00:01:07"
MAC8 = "02:00:00:00:01:08"
MAC9 = "02:00:00:00:01:09"
MAC9B = "02:00:00:00:01:99"


def _hairpin(tag, dst, **kw):
    """A datagram from a host on port 1's subnet to another one there
    (forwarded back out of port 1)."""
    return frame(tag=tag, port=1, src="10.0.1.5", dst=dst, **kw)


def _filler(tag, k=32):
    """k frames on port 0 forwarded out port 1: they fill port 0's first
    RX burst (32), so a frame behind them is processed after port 1's
    first burst."""
    return [fwd(frame(tag="%s#fill%d" % (tag, i), ident=i + 1), 1, B_MAC)
            for i in range(k)]


def _learn_then_forward(n):
    """A request for our address from a new host on a connected subnet
    creates its entry: a later packet to it leaves without ARP."""
    req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.8", hwsrc=MAC8,
                            learnt=True)
    return [req] + _filler(n) + [fwd(frame(tag=n, dst="10.0.1.8"), 1, MAC8)]


def _learn_same_burst(n):
    req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.18",
                            hwsrc="02:00:00:00:01:18", learnt=True)
    return [req, fwd(_hairpin(n, "10.0.1.18"), 1, "02:00:00:00:01:18",
                     in_port=1)]


def _reply_releases(k, after_filler=False):
    """k packets to 10.0.1.7 on port 0 (ARP request, held), then its reply
    on port 1: the newest 3 leave in order with the learnt MAC, older ones
    are dropped to make room."""
    def b(n):
        parts = []
        for i in range(k):
            fr = frame(tag="%s#%d" % (n, i), dst="10.0.1.7", ident=i + 1)
            if i < k - 3:
                p = ipdrop(fr, "ForwDatagrams", "arp.UnresolvedDiscards")
            else:
                p = fwd(fr, 1, MAC7)
            parts.append(p.resolve(1, "10.0.1.7"))
        reply = _arp_in(1, 2, "10.0.1.7", "10.0.1.254", MAC7, hwdst=P1_MAC,
                        eth_dst=P1_MAC)
        parts.append(Part([(1, reply)], [], {"arp.InReplies": 1,
                                             "arp.Updates": 1}))
        return parts
    return b


def _reply_same_burst(n):
    """The brief's sequence in one pcap: [packet to unknown 10.0.1.7, ARP
    reply from 10.0.1.7] (both on port 1, so one RX burst): the request
    goes out, the reply releases the packet."""
    fr = _hairpin(n, "10.0.1.7")
    reply = _arp_in(1, 2, "10.0.1.7", "10.0.1.254", MAC7, hwdst=P1_MAC,
                    eth_dst=P1_MAC)
    return [fwd(fr, 1, MAC7, in_port=1).resolve(1, "10.0.1.7"),
            Part([(1, reply)], [], {"arp.InReplies": 1, "arp.Updates": 1})]


def _gratuitous(op):
    """A learnt entry (10.0.1.9 at MAC9) is moved by a gratuitous ARP
    (broadcast, sender = target = 10.0.1.9) to MAC9B: the next packet
    goes to MAC9B. The entry is then stale: listack may probe it with a
    unicast request (Linux would wait delay_first_probe_time first)."""
    def b(n):
        req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.9",
                                hwsrc=MAC9, learnt=True)
        garp = _arp_in(1, op, "10.0.1.9", "10.0.1.9", MAC9B,
                       hwdst="ff:ff:ff:ff:ff:ff" if op == 2 else
                       "00:00:00:00:00:00")
        g = Part([(1, garp)], [], {"arp.Updates": 1, (
            "arp.InRequests" if op == 1 else "arp.InReplies"): 1})
        p = fwd(_hairpin(n, "10.0.1.9"), 1, MAC9B, in_port=1)
        p.optional.append((1, lsk.arp_request_from_us(1, "10.0.1.9",
                                                      to_mac=MAC9B)))
        return [req, g, p]
    return b


def _garp_unknown(n):
    """A gratuitous ARP does not create an entry (arp_accept=0)."""
    garp = _arp_in(1, 1, "10.0.1.10", "10.0.1.10", "02:00:00:00:01:10")
    return [Part([(1, garp)], [], {"arp.InRequests": 1}),
            unresolved(_hairpin(n, "10.0.1.10"), in_port=1)]


def _garp_static(n):
    """A gratuitous ARP does not move a static entry."""
    garp = _arp_in(1, 1, "10.0.1.1", "10.0.1.1", "02:00:00:00:01:66")
    return [Part([(1, garp)], [], {"arp.InRequests": 1}),
            fwd(_hairpin(n, "10.0.1.1"), 1, B_MAC, in_port=1)]


def _req_not_ours_not_learnt(n):
    """A request for someone else teaches nothing about its sender."""
    req = _arp_in(1, 1, "10.0.1.11", "10.0.1.77", "02:00:00:00:01:11")
    return [Part([(1, req)], [], {"arp.InRequests": 1}),
            unresolved(_hairpin(n, "10.0.1.11"), in_port=1)]


def _learnt_other_port(n):
    """A host learnt on port 0's subnet is reached from port 1."""
    req = _arp_req_answered(0, "10.0.0.254", psrc="10.0.0.20",
                            hwsrc="02:00:00:00:00:20", learnt=True)
    return [req, fwd(frame(tag=n, port=1, dst="10.0.0.20"), 0,
                     "02:00:00:00:00:20", in_port=1)]


def _error_waits_for_arp(n):
    """An ICMP error to a host with no neighbour entry waits for ARP like
    any datagram: the request goes out, the host's reply (next burst of
    port 0) releases the error to its MAC."""
    mac3 = "02:00:00:00:00:03"
    fr = frame(tag=n, src="10.0.0.3", ttl=1)
    p = ipdrop(fr, "InHdrErrors").resolve(0, "10.0.0.3")
    p.error(fr, 11, 0, route=lambda d: (0, mac3))
    reply = _arp_in(0, 2, "10.0.0.3", "10.0.0.254", mac3, hwdst=P0_MAC,
                    eth_dst=P0_MAC)
    return [p] + _filler(n, 31) + [
        Part([(0, reply)], [], {"arp.InReplies": 1, "arp.Updates": 1})]


case("arp_learn_from_request_then_forward", "arp", _learn_then_forward)
case("arp_icmp_error_waits_for_arp", "arp", _error_waits_for_arp)
case("arp_learn_from_request_same_burst", "arp", _learn_same_burst)
case("arp_learnt_used_from_other_port", "arp", _learnt_other_port)
case("arp_reply_releases_held_packet", "arp", _reply_releases(1))
case("arp_reply_releases_held_in_order", "arp", _reply_releases(3))
case("arp_hold_queue_keeps_newest_3", "arp", _reply_releases(5))
case("arp_reply_after_packet_same_burst", "arp", _reply_same_burst)
case("arp_gratuitous_request_updates_entry", "arp", _gratuitous(1))
case("arp_gratuitous_reply_updates_entry", "arp", _gratuitous(2))
case("arp_gratuitous_unknown_not_learnt", "arp", _garp_unknown)
case("arp_gratuitous_static_unchanged", "arp", _garp_static)
case("arp_request_not_ours_not_learnt", "arp", _req_not_ours_not_learnt)


if __name__ == "__main__":
    sys.exit(rt.main())
