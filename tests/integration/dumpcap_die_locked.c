/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LD_PRELOAD shim for tests/integration/test_dumpcap.py: a dpdk-dumpcap
 * that dies holding EAL's shared memory lock, as a secondary whose EAL
 * fails half-way through its initialisation or cleanup can (its EAL
 * could not map the primary's memory where its own libraries sit, then
 * crashed in rte_eal_cleanup). It wraps rte_eal_init: once the secondary
 * is attached, it takes the memory hotplug lock of the primary's config
 * for writing and exits at once, as a crash would, without releasing it.
 * No DPDK header: both functions are looked up at run time. The test
 * builds it with `cc -shared -fPIC -ldl`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int rte_eal_init(int argc, char **argv);

int
rte_eal_init(int argc, char **argv)
{
	int (*init)(int, char **) =
		(int (*)(int, char **))dlsym(RTLD_NEXT, "rte_eal_init");
	void (*lock)(void) =
		(void (*)(void))dlsym(RTLD_DEFAULT, "rte_mcfg_mem_write_lock");
	int rc;

	if (init == NULL || lock == NULL) {
		fprintf(stderr, "dumpcap_die_locked: no EAL to wrap\n");
		_exit(2);
	}
	rc = init(argc, argv);
	if (rc < 0)
		return rc;
	lock();
	fprintf(stderr, "dumpcap_die_locked: attached, memory lock taken, "
		"dying with it\n");
	_exit(3);
}
