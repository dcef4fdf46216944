/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_SANDBOX_H
#define KVERIFY_SANDBOX_H

#include "lib/run.h"
#include "lib/strbuf.h"

/*
 * What code from the tree under test may see: the whole file system read
 * only (or @root's, a toolchain's chroot), but $HOME and /tmp are empty (a
 * private /tmp), and of what they hid only @ro comes back, read only, and
 * @rw, writable.  @ro and @rw keep their host paths.
 */
struct sandbox {
	struct strvec ro;
	struct strvec rw;
	const char *root;
	/* a device it may use (QEMU's /dev/kvm), with the device's group */
	const char *dev;
};

#define SANDBOX_INIT { .ro = STRVEC_INIT, .rw = STRVEC_INIT }

/* $HOME in the sandbox: an empty directory of its private /tmp. */
#define SANDBOX_HOME "/tmp/home"

/* The user code under test runs as, when kverify runs as root. */
#define SANDBOX_UID 65534

int sandbox_child(struct child *c, const struct sandbox *sb,
		  struct strbuf *why);
void sandbox_clear(struct sandbox *sb);

#endif
