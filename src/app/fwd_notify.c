/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-fwd's state for systemd (src/app/fwd_notify.h). */
#include <time.h>

#include "fwd_notify.h"

#ifdef LSK_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>

void
fwd_notify_ready(unsigned int n_ports, unsigned int n_workers)
{
	sd_notifyf(0, "READY=1\nSTATUS=forwarding: %u ports, %u workers",
		   n_ports, n_workers);
}

void
fwd_notify_reloading(void)
{
	struct timespec ts;

	/* MONOTONIC_USEC: systemd (Type=notify-reload) matches the reload
	 * it asked for with the RELOADING=1 that answers it */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=reloading",
		   (unsigned long long)ts.tv_sec * 1000000ull +
		   (unsigned long long)ts.tv_nsec / 1000u);
}

void
fwd_notify_stopping(void)
{
	sd_notify(0, "STOPPING=1\nSTATUS=stopping");
}

#else

void
fwd_notify_ready(unsigned int n_ports, unsigned int n_workers)
{
	(void)n_ports;
	(void)n_workers;
}

void
fwd_notify_reloading(void)
{
}

void
fwd_notify_stopping(void)
{
}

#endif
