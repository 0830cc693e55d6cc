/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the control thread's tables reach the workers (control/stack.c):
 * the table built, published with RCU and the one it replaced freed once
 * no worker can read it; the ports' MTU and admin state following a new
 * configuration; and the one reader of the stack on a thread of its own.
 * control.h includes it, after struct lsk_stack.
 */
#ifndef LSK_CONTROL_PUBLISH_H
#define LSK_CONTROL_PUBLISH_H

struct lsk_stack;
struct lsk_port_conf;

/* Wait until no worker can still be reading a table replaced before the
 * call: each has passed a quiescent state since (control/stack.c). */
void lsk_stack_synchronize(struct lsk_stack *s);

/*
 * Hand table t to the workers in slot (s->sh.fwd, s->sh.udp, s->sh.filter),
 * which they load once per burst (lsk_published, core/shared.h), and
 * free the table it
 * replaces once none can be reading it. It cannot fail: what can fail
 * (the build) comes before it, and the old table is kept until then.
 */
#define lsk_publish(s, slot, t, free_fn) do {				\
	__typeof__(t) lsk_old_ = (slot);				\
	__atomic_store_n(&(slot), (t), __ATOMIC_RELEASE);		\
	lsk_stack_synchronize(s);					\
	free_fn(lsk_old_);						\
} while (0)

/* Build the forwarding table from the lists and publish it (nothing in a
 * batch: its commit does), and the settings word with the ports' MTUs
 * (control/stack.c). */
int lsk_stack_publish(struct lsk_stack *s);
void lsk_stack_settings_publish(struct lsk_stack *s);
/* The devices of the ports whose MTU differs between from and to are
 * set to to's (the MTU hook); on the first refusal those already set go
 * back to from's and its errno is returned. */
int lsk_port_mtus_follow(struct lsk_stack *s,
			 const struct lsk_port_conf *from,
			 const struct lsk_port_conf *to);

/* The admin call (listack/iface.h) for each port whose admin state
 * differs between from and to, once to's tables are published
 * (control/port_admin.c). */
void lsk_port_admin_follow(struct lsk_stack *s,
			   const struct lsk_port_conf *from,
			   const struct lsk_port_conf *to);

/*
 * A reader of the stack on a thread of its own (telemetry,
 * serve/telemetry.c), one per process: told when a stack goes, and
 * waited for before a worker is freed, so that a read in progress ends
 * first. Set by the reader; the control side calls it, knowing nothing
 * above it.
 */
struct lsk_stack_reader {
	void (*forget)(const struct lsk_stack *s);
	void (*quiesce)(void);
};
void lsk_stack_reader_set(const struct lsk_stack_reader *r);
void lsk_stack_reader_forget(const struct lsk_stack *s);
void lsk_stack_reader_quiesce(void);

#endif /* LSK_CONTROL_PUBLISH_H */
