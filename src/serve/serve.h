/* SPDX-License-Identifier: BSD-3-Clause */
/* The control socket's file, for serve/ctl_server.c. */
#ifndef LSK_SERVE_H
#define LSK_SERVE_H

#include <sys/types.h>

/*
 * Listen on a UNIX stream socket at path (non-blocking, close-on-exec):
 * missing directories are made 0755, the socket is 0660. A stale socket
 * at path is replaced; a live one is -EADDRINUSE, anything that is not a
 * socket -EEXIST (left alone). Returns the fd, or a negative errno; *dev
 * and *ino name the file made.
 */
int lsk_ctl_path_listen(const char *path, int backlog, dev_t *dev,
			ino_t *ino);
/* Remove path if it is still the file (dev, ino) made. */
void lsk_ctl_path_unlink(const char *path, dev_t dev, ino_t ino);

#endif /* LSK_SERVE_H */
