/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What both libFuzzer targets share: EAL start-up once per process, and a
 * failure that names what broke (libFuzzer saves the input on abort).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_memory.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define FUZZ_LSAN 1
#endif
#endif

/* An invariant the stack broke: say which, then abort so libFuzzer keeps
 * the input as a crash file. */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FUZZ INVARIANT BROKEN: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/*
 * EAL without hugepages, PCI or shared files (several fuzzers and the
 * unit tests run side by side), quiet: libFuzzer's own lines are what a
 * run prints.
 */
static inline void
fuzz_eal_init(const char *prog, const char *mem_mb)
{
	char *argv[] = {
		(char *)prog, "--no-huge", "--no-pci", "--no-shconf",
		"-m", (char *)mem_mb, "--log-level=*:crit", "-l", "0",
		"--no-telemetry", NULL,
	};

	if (rte_eal_init((int)(sizeof(argv) / sizeof(argv[0])) - 1,
			 argv) < 0)
		fuzz_fail("rte_eal_init failed");
}

#ifdef FUZZ_LSAN
static int
fuzz_lsan_root(const struct rte_memseg_list *msl, void *arg)
{
	(void)arg;
	if (msl->base_va != NULL && msl->len != 0)
		__lsan_register_root_region(msl->base_va, msl->len);
	return 0;
}
#endif

/*
 * The stack keeps what it mallocs (arrays of rules, endpoints, services)
 * behind pointers in DPDK's memory, which LeakSanitizer does not scan by
 * itself: without this, whatever a stack kept across inputs would read as
 * leaked. Only the readable parts of a region are scanned.
 */
static inline void
fuzz_lsan_scan_dpdk_memory(void)
{
#ifdef FUZZ_LSAN
	rte_memseg_list_walk(fuzz_lsan_root, NULL);
#endif
}

#endif /* FUZZ_COMMON_H */
