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

#endif /* FUZZ_COMMON_H */
