/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the FPM reader's tests (test_fpm_msg.c for IPv4, test_fpm_msg6.c
 * for IPv6) share: the frames each test builds in b (fpm_build.h),
 * decoded into ops from a copy of their exact size (ASan sees
 * overreads); the setup that empties b; the frame edits of the
 * malformed cases; a nexthop message that must be refused. One copy per
 * test program (static).
 */
#ifndef FPM_DECODE_H
#define FPM_DECODE_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "serve/fpm_msg.h"

#include "fpm_build.h"

#define OPS_CAP 4096

static struct lsk_fpm_op ops[OPS_CAP];
static struct fb b;

/* Decode b's first len bytes. */
static int
decode(size_t len, size_t *used, struct lsk_fpm_stats *cnt,
       enum lsk_fpm_err *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, b.buf, len);
	memset(cnt, 0, sizeof(*cnt));
	rc = lsk_fpm_decode(copy, len, ops, OPS_CAP, cnt, used, err);
	free(copy);
	return rc;
}

/* Decode b whole: every byte used when it is taken. */
static int
decode_all(struct lsk_fpm_stats *cnt)
{
	enum lsk_fpm_err err;
	size_t used = 0;
	int rc = decode(b.len, &used, cnt, &err);

	if (rc >= 0)
		assert_int_equal(used, b.len);
	return rc;
}

#define decode_err() decode_err_at(__LINE__)

/* b must be refused: the reason. */
static enum lsk_fpm_err
decode_err_at(int line)
{
	struct lsk_fpm_stats cnt;
	enum lsk_fpm_err err;
	size_t used;
	int rc = decode(b.len, &used, &cnt, &err);

	if (rc != -EBADMSG)
		fail_msg("line %d: accepted (%d ops)", line, rc);
	assert_int_not_equal(err, LSK_FPM_OK);
	return err;
}

static int
reset(void **state)
{
	(void)state;
	memset(&b, 0, sizeof(b));
	return 0;
}

static inline void
set16(size_t at, uint16_t v)
{
	memcpy(b.buf + at, &v, 2);
}

static inline void
set32(size_t at, uint32_t v)
{
	memcpy(b.buf + at, &v, 4);
}

/* b anew: one frame with nexthop id of family and one attribute. */
static inline void
nh_one_attr(uint8_t family, uint32_t id, uint16_t type, const void *p,
	    size_t len)
{
	memset(&b, 0, sizeof(b));
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, family, id);
	fb_attr(&b, type, p, len);
	fb_msg_end(&b);
	fb_frame_end(&b);
}

#endif /* FPM_DECODE_H */
