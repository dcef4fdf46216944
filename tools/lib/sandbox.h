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

/**
 * sandbox_child() - Wrap a child's command in bubblewrap.
 * @c: The child; its args become bwrap's command line, ending with its
 *	own command.  @c->dir, if set, is where it starts, inside too; of
 *	our environment it gets only what make, kbuild and ccache read,
 *	plus @c->env.
 * @sb: What the sandbox shows: @sb->ro read only, @sb->rw writable (each
 *	then guarded with fs_guard(), and handed to SANDBOX_UID when kverify
 *	runs as root), @sb->root, @sb->dev.
 * @why: Appended to when it fails.
 *
 * No network, IPC, PID or UTS namespace shared; as root the command runs
 * as SANDBOX_UID through setpriv, with no capabilities.
 *
 * Return: 0, or -1 with @why naming the package to install (the command
 * itself, bwrap or setpriv missing) or the directory it could not
 * prepare.
 */
int sandbox_child(struct child *c, const struct sandbox *sb,
		  struct strbuf *why);

/**
 * sandbox_clear() - Free a sandbox's path vectors.
 * @sb: The sandbox; @sb->root and @sb->dev are not freed.
 */
void sandbox_clear(struct sandbox *sb);

#endif
