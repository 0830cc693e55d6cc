/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The neighbour table, shared by the workers: IPv4 address to MAC, with
 * Linux's states (incomplete, reachable, stale, failed, and static for
 * `neigh add`). Readers take an entry's MAC and state from one 64-bit word
 * without a lock; an rte_hash (lock-free readers) finds the entry. Entries
 * are created on first use and never freed while the stack runs, so no
 * reader can see one disappear; the hold queue of an unresolved entry and
 * entry creation take locks, both on the slow path only.
 *
 * Timers follow Linux's defaults: a confirmation lasts 30 s (then stale,
 * re-probed on use), requests are retried every second, three unanswered
 * ones fail the entry, and three packets wait for an answer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "lsk_priv.h"

#define NEIGH_REACHABLE_S 30
#define NEIGH_RETRANS_MS 1000
#define NEIGH_MAX_PROBES 3
/* a failed entry may be tried again after this */
#define NEIGH_FAILED_RETRY_MS 1000

static inline uint64_t
neigh_word(const struct rte_ether_addr *mac, uint8_t state)
{
	uint64_t w = 0;

	if (mac != NULL)
		memcpy(&w, mac, RTE_ETHER_ADDR_LEN);
	return w | (uint64_t)state << 56;
}

static inline uint8_t
word_state(uint64_t w)
{
	return (uint8_t)(w >> 56);
}

static inline void
word_mac(uint64_t w, struct rte_ether_addr *mac)
{
	memcpy(mac, &w, RTE_ETHER_ADDR_LEN);
}

int
lsk_neigh_table_create(struct lsk_stack *s, uint32_t cap)
{
	struct lsk_neigh_table *t;
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	t = rte_zmalloc_socket("lsk_neigh", sizeof(*t) + cap * sizeof(t->e[0]),
			       RTE_CACHE_LINE_SIZE, s->socket_id);
	if (t == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%.20s_neigh", s->name);
	hp.name = name;
	hp.entries = cap * 2;
	hp.key_len = sizeof(uint32_t);
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->socket_id;
	hp.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF;
	t->hash = rte_hash_create(&hp);
	if (t->hash == NULL) {
		rte_free(t);
		return -(rte_errno ? rte_errno : ENOMEM);
	}
	rte_spinlock_init(&t->create_lock);
	t->cap = cap;
	s->neigh = t;
	return 0;
}

void
lsk_neigh_table_free(struct lsk_neigh_table *t)
{
	uint32_t i, k;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		for (k = 0; k < t->e[i].n_held; k++)
			rte_pktmbuf_free(t->e[i].held[k]);
	rte_hash_free(t->hash);
	rte_free(t);
}

struct lsk_neigh_entry *
lsk_neigh_lookup(const struct lsk_neigh_table *t, uint32_t addr)
{
	void *idx;

	if (rte_hash_lookup_data(t->hash, &addr, &idx) < 0)
		return NULL;
	return (struct lsk_neigh_entry *)&t->e[(uintptr_t)idx];
}

/* Find or make the entry; NULL when the table is full. */
static struct lsk_neigh_entry *
neigh_get(struct lsk_neigh_table *t, uint32_t addr, uint16_t port,
	  bool *created)
{
	struct lsk_neigh_entry *e;

	*created = false;
	e = lsk_neigh_lookup(t, addr);
	if (e != NULL)
		return e;
	rte_spinlock_lock(&t->create_lock);
	e = lsk_neigh_lookup(t, addr);
	if (e == NULL && t->n < t->cap) {
		e = &t->e[t->n];
		memset(e, 0, sizeof(*e));
		e->addr = addr;
		e->port = port;
		rte_spinlock_init(&e->lock);
		e->word = neigh_word(NULL, LSK_NEIGH_INCOMPLETE);
		if (rte_hash_add_key_data(t->hash, &addr,
					  (void *)(uintptr_t)t->n) == 0) {
			/* the entry is whole before readers can find it */
			__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
			*created = true;
		} else {
			e = NULL;
		}
	}
	rte_spinlock_unlock(&t->create_lock);
	return e;
}

int
lsk_neigh_set_static(struct lsk_stack *s, uint32_t addr, uint16_t port,
		     const struct rte_ether_addr *mac)
{
	bool created;
	struct lsk_neigh_entry *e = neigh_get(s->neigh, addr, port, &created);

	if (e == NULL)
		return -ENOSPC;
	e->port = port;
	__atomic_store_n(&e->word, neigh_word(mac, LSK_NEIGH_STATIC),
			 __ATOMIC_RELEASE);
	return 0;
}

/* Our address on the subnet of addr on port, the source of requests. */
static uint32_t
neigh_source(const struct lsk_stack *s, uint32_t addr)
{
	const struct lsk_ifaddr *a = lsk_connected_lookup(s, addr);

	return a ? a->addr : 0;
}

static void
neigh_send_request(struct lsk_worker *w, struct lsk_neigh_entry *e,
		   struct rte_mempool *pool, const struct rte_ether_addr *to)
{
	struct lsk_stack *s = w->stack;
	struct rte_ether_hdr *eh;
	struct rte_arp_hdr *ah;
	struct rte_mbuf *m;

	if (pool == NULL)
		pool = s->send_pool;
	if (pool == NULL || (m = rte_pktmbuf_alloc(pool)) == NULL)
		return;
	eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	ah = (struct rte_arp_hdr *)(eh + 1);
	if (to != NULL)
		eh->dst_addr = *to;
	else
		memset(&eh->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	eh->src_addr = s->ports[e->port].mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	ah->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	ah->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ah->arp_hlen = RTE_ETHER_ADDR_LEN;
	ah->arp_plen = 4;
	ah->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	ah->arp_data.arp_sha = s->ports[e->port].mac;
	ah->arp_data.arp_sip = rte_cpu_to_be_32(neigh_source(s, e->addr));
	memset(&ah->arp_data.arp_tha, 0, RTE_ETHER_ADDR_LEN);
	ah->arp_data.arp_tip = rte_cpu_to_be_32(e->addr);
	m->data_len = m->pkt_len = sizeof(*eh) + sizeof(*ah);
	w->stats.arp.OutRequests++;
	lsk_tx_enqueue(w, e->port, m);
}

/* Give a held or resolved packet its Ethernet header and send it. */
static void
neigh_output(struct lsk_worker *w, struct lsk_neigh_entry *e,
	     const struct rte_ether_addr *mac, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

	eh->dst_addr = *mac;
	eh->src_addr = w->stack->ports[e->port].mac;
	lsk_tx_enqueue(w, e->port, m);
}

bool
lsk_neigh_resolve(struct lsk_worker *w, uint32_t addr, uint16_t port,
		  struct rte_mbuf *m)
{
	struct lsk_neigh_table *t = w->stack->neigh;
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	struct rte_ether_addr mac;
	struct lsk_neigh_entry *e;
	bool created;
	uint64_t word;
	uint8_t state;

	e = neigh_get(t, addr, port, &created);
	if (e == NULL) {
		w->stats.arp.UnresolvedDiscards++;
		rte_pktmbuf_free(m);
		return false;
	}
	word = __atomic_load_n(&e->word, __ATOMIC_ACQUIRE);
	state = word_state(word);
	if (state == LSK_NEIGH_REACHABLE || state == LSK_NEIGH_STALE ||
	    state == LSK_NEIGH_STATIC) {
		word_mac(word, &mac);
		if (state == LSK_NEIGH_REACHABLE &&
		    now - e->confirmed > NEIGH_REACHABLE_S * hz) {
			/* unconfirmed too long: use it, ask again */
			__atomic_store_n(&e->word, neigh_word(&mac,
				LSK_NEIGH_STALE), __ATOMIC_RELEASE);
			state = LSK_NEIGH_STALE;
		}
		if (state == LSK_NEIGH_STALE && now >= e->next_probe) {
			e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
			neigh_send_request(w, e, m->pool, &mac);
		}
		neigh_output(w, e, &mac, m);
		return true;
	}

	rte_spinlock_lock(&e->lock);
	state = word_state(e->word);
	if (state == LSK_NEIGH_FAILED && now < e->next_probe) {
		rte_spinlock_unlock(&e->lock);
		w->stats.arp.UnresolvedDiscards++;
		rte_pktmbuf_free(m);
		return false;
	}
	if (state == LSK_NEIGH_FAILED || created) {
		e->port = port;
		e->probes = 1;
		e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
		__atomic_store_n(&e->word, neigh_word(NULL,
			LSK_NEIGH_INCOMPLETE), __ATOMIC_RELEASE);
		neigh_send_request(w, e, m->pool, NULL);
	} else if (state != LSK_NEIGH_INCOMPLETE) {
		/* resolved meanwhile */
		rte_spinlock_unlock(&e->lock);
		return lsk_neigh_resolve(w, addr, port, m);
	}
	if (e->n_held == LSK_NEIGH_HOLD) {
		/* as Linux's unres_qlen: the oldest makes room */
		w->stats.arp.UnresolvedDiscards++;
		rte_pktmbuf_free(e->held[0]);
		memmove(&e->held[0], &e->held[1],
			(LSK_NEIGH_HOLD - 1) * sizeof(e->held[0]));
		e->n_held--;
	}
	e->held[e->n_held++] = m;
	rte_spinlock_unlock(&e->lock);
	return false;
}

/*
 * What an ARP packet says about its sender: update an entry we have (a
 * reply to us confirms it; anything else makes it stale), or make one
 * when asked for our address. Held packets leave once the MAC is known.
 */
void
lsk_neigh_learn(struct lsk_worker *w, uint32_t addr, uint16_t port,
		const struct rte_ether_addr *mac, bool confirmed, bool create)
{
	struct lsk_neigh_table *t = w->stack->neigh;
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
	struct lsk_neigh_entry *e;
	uint32_t n_held, i;
	bool created;

	e = create ? neigh_get(t, addr, port, &created)
		   : lsk_neigh_lookup(t, addr);
	if (e == NULL || word_state(e->word) == LSK_NEIGH_STATIC)
		return;
	rte_spinlock_lock(&e->lock);
	e->port = port;
	if (confirmed || create)
		e->confirmed = rte_rdtsc();
	e->next_probe = 0;
	__atomic_store_n(&e->word, neigh_word(mac, confirmed || create ?
		LSK_NEIGH_REACHABLE : LSK_NEIGH_STALE), __ATOMIC_RELEASE);
	w->stats.arp.Updates++;
	n_held = e->n_held;
	memcpy(held, e->held, n_held * sizeof(held[0]));
	e->n_held = 0;
	rte_spinlock_unlock(&e->lock);
	for (i = 0; i < n_held; i++)
		neigh_output(w, e, mac, held[i]);
}

uint32_t
lsk_neigh_drop_held(struct lsk_stack *s)
{
	struct lsk_neigh_table *t = s->neigh;
	uint32_t i, k, n = 0;

	for (i = 0; i < t->n; i++) {
		struct lsk_neigh_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		for (k = 0; k < e->n_held; k++)
			rte_pktmbuf_free(e->held[k]);
		n += e->n_held;
		e->n_held = 0;
		rte_spinlock_unlock(&e->lock);
	}
	s->ctl_stats.arp.UnresolvedDiscards += n;
	return n;
}

/* Retries and failures of unanswered requests; worker 0 runs it. */
void
lsk_neigh_timer(struct lsk_worker *w)
{
	struct lsk_neigh_table *t = w->stack->neigh;
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	uint32_t i, n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);

	if (now < t->next_timer)
		return;
	t->next_timer = now + hz / 10;
	for (i = 0; i < n; i++) {
		struct lsk_neigh_entry *e = &t->e[i];
		struct rte_mbuf *dropped[LSK_NEIGH_HOLD];
		uint32_t n_dropped = 0, k;

		if (word_state(e->word) != LSK_NEIGH_INCOMPLETE ||
		    now < e->next_probe)
			continue;
		rte_spinlock_lock(&e->lock);
		if (word_state(e->word) == LSK_NEIGH_INCOMPLETE &&
		    now >= e->next_probe) {
			if (e->probes < NEIGH_MAX_PROBES) {
				e->probes++;
				e->next_probe = now + NEIGH_RETRANS_MS * hz / 1000;
				neigh_send_request(w, e, e->n_held ?
						   e->held[0]->pool : NULL, NULL);
			} else {
				e->next_probe = now +
					NEIGH_FAILED_RETRY_MS * hz / 1000;
				__atomic_store_n(&e->word, neigh_word(NULL,
					LSK_NEIGH_FAILED), __ATOMIC_RELEASE);
				w->stats.arp.ResFailed++;
				n_dropped = e->n_held;
				memcpy(dropped, e->held,
				       n_dropped * sizeof(dropped[0]));
				e->n_held = 0;
			}
		}
		rte_spinlock_unlock(&e->lock);
		for (k = 0; k < n_dropped; k++) {
			w->stats.arp.UnresolvedDiscards++;
			lsk_icmp4_unreach_host(w, dropped[k]);
		}
	}
}
