// SPDX-License-Identifier: GPL-2.0
/*
 * A Debian release's own compiler, for the modules of a kernel that
 * release built where this machine's release cannot install it: the 7.x
 * kernels of trixie-backports and sid are built with gcc-14 and gcc-16,
 * bookworm has gcc-12.  The release is bootstrapped (mmdebstrap, minbase)
 * into <cache>/toolchains/<release>-<package> once, with the compiler
 * package the headers depend on and what kbuild needs for external modules;
 * the module build then runs chrooted into it, with the cache mounted at
 * its own path (struct child's root and bind).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/run.h"
#include "sources/apt.h"
#include "sources/toolchain.h"

/*
 * kbuild's M= build: make, binutils, libc; libelf for objtool, pahole for
 * BTF; ccache, which Debian's headers put before the compiler on request
 */
#define KBUILD_PACKAGES "make,binutils,libc6-dev,libelf-dev,dwarves,ccache"
#define BOOTSTRAP_TIMEOUT 1800

/* The Debian release of an apt suite: trixie of trixie-backports. */
char *toolchain_release(const char *suite)
{
	return xstrfmt("%.*s", (int)strcspn(suite, "-"), suite);
}

/* Can a toolchain be made here?  If not, @why says what is missing. */
int toolchain_usable(struct strbuf *why)
{
	if (geteuid()) {
		strbuf_addstr(why, "making it in a chroot of that Debian release (mmdebstrap) needs root");
		return 0;
	}
	if (!path_has("mmdebstrap")) {
		missing_tool(why, "mmdebstrap", "mmdebstrap");
		return 0;
	}
	return 1;
}

/*
 * mmdebstrap runs apt with a configuration of its own, not the machine's:
 * pass on the machine's Acquire::Check-Valid-Until, which the private apt
 * state (apt.c) already follows.  A mirror that serves a snapshot has
 * Release files past their Valid-Until, and its operator turns the check
 * off for every apt of the machine.
 */
static void machine_apt_options(struct strvec *args)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;

	strvec_pushl(&c.args, "apt-config", "shell", "V",
		     "Acquire::Check-Valid-Until", NULL);
	c.out = &out;
	c.timeout = 60;
	if (!run_child(&c) && !strcmp(out.buf, "V='false'\n"))
		strvec_push(args, "--aptopt=Acquire::Check-Valid-Until \"false\"");
	child_clear(&c);
	strbuf_release(&out);
}

static int bootstrap(const struct options *opt, const char *release,
		     const char *pkg, const char *dir, const char *log,
		     struct strbuf *why)
{
	struct child c = CHILD_INIT;
	char *mirror = NULL;
	int ret = -1;

	if (apt_mirror_for_suite(opt, release, &mirror, why))
		return -1;
	/*
	 * dpkg without an fsync per file (it is most of the time): the root
	 * is synced once, below, before it is trusted.
	 */
	strvec_pushl(&c.args, "mmdebstrap", "--variant=minbase", "--mode=root",
		     "--dpkgopt=force-unsafe-io", NULL);
	machine_apt_options(&c.args);
	strvec_pushf(&c.args, "--include=%s,%s", pkg, KBUILD_PACKAGES);
	strvec_pushl(&c.args, release, dir, mirror, NULL);
	c.log = log;
	c.timeout = BOOTSTRAP_TIMEOUT;
	/* mmdebstrap mounts /proc and /dev in @dir: gone with it if killed */
	c.private_mounts = 1;
	/* its pipe to apt must get a one-digit number: "cat >&N" in dash */
	c.close_fds = 1;
	if (run_child(&c))
		child_describe_failure(&c, why);
	else if (sync_tree(dir))
		strbuf_addf(why, "cannot sync %s: %s", dir, strerror(errno));
	else
		ret = 0;
	child_clear(&c);
	free(mirror);
	return ret;
}

/*
 * @pkg (a Depends: of Debian's headers, gcc-14-for-host) installed in
 * the Debian release of @suite (trixie of trixie-backports): its root in
 * @root, made now if the cache has none.  The cache gets a mount point
 * there.
 */
int toolchain_get(const struct options *opt, const char *suite,
		  const char *pkg, const char *log, char **root,
		  struct strbuf *why)
{
	const char *cache = sources_dir(opt);
	char *release = toolchain_release(suite);
	char *dir = xstrfmt("%s/toolchains/%s-%s", cache, release, pkg);
	char *stamp = xstrfmt("%s/.kverify-toolchain", dir);
	char *want = xstrfmt("%s %s,%s", release, pkg, KBUILD_PACKAGES);
	/* Made and removed only under locks/toolchain-<release>-<pkg>.lock. */
	char *tmp = xstrfmt("%s.tmp", dir), *had, *at;
	int fd = -1, ret = -1;

	*root = NULL;
	had = read_first_line(stamp);
	if (had && !strcmp(had, want))
		goto done;
	free(had);
	had = NULL;
	if (lock_in_cache(cache, 1, &fd, why, "toolchain-%s-%s.lock", release,
			  pkg))
		goto out;
	had = read_first_line(stamp);
	if (had && !strcmp(had, want))
		goto done;
	at = xstrfmt("%s/toolchains", cache);
	mkdir_p(at);
	free(at);
	if (rm_rf(tmp) || bootstrap(opt, release, pkg, tmp, log, why))
		goto out;
	if (rm_rf(dir) || rename(tmp, dir) < 0) {
		strbuf_addf(why, "cannot move %s to %s: %s", tmp, dir,
			    strerror(errno));
		goto out;
	}
	if (write_file_atomic(stamp, want, strlen(want))) {
		strbuf_addf(why, "cannot write %s: %s", stamp, strerror(errno));
		goto out;
	}
done:
	at = xstrfmt("%s%s", dir, cache);
	if (mkdir_p(at)) {
		strbuf_addf(why, "cannot create %s: %s", at, strerror(errno));
	} else {
		*root = dir;
		dir = NULL;
		ret = 0;
	}
	free(at);
out:
	unlock_file(fd);
	free(release);
	free(dir);
	free(stamp);
	free(want);
	free(tmp);
	free(had);
	return ret;
}
