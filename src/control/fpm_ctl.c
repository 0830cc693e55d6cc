/* SPDX-License-Identifier: BSD-3-Clause */
/* `fpm listen` (control/fpm_ctl.h): the setting the FPM server follows. */
#include "control/control.h"
#include "control/fpm_ctl.h"

void
lsk_fpm_listen_set(struct lsk_stack *s, uint32_t addr, uint16_t port)
{
	if (port == 0)
		addr = 0;
	if (s->fpm.addr == addr && s->fpm.port == port)
		return;
	s->fpm.addr = addr;
	s->fpm.port = port;
	__atomic_add_fetch(&s->fpm.generation, 1, __ATOMIC_RELEASE);
}
