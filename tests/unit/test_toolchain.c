// SPDX-License-Identifier: GPL-2.0
/*
 * The toolchain chroot (tools/sources/toolchain.c) against an mmdebstrap of ours
 * on $PATH: made once under its lock, a failure leaves nothing trusted,
 * what mmdebstrap mounts goes with it, a changed package list makes it
 * again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/fsutil.h"
#include "../../tools/sources/toolchain.h"

static char *dir, *cache, *log_path, *calls;

/*
 * $FAKE: ok (a root with the compiler), fail, or mount (tmpfs on proc).
 * The root is the argument before the mirror, the last.
 */
static const char fake[] =
	"#!/bin/sh\n"
	"echo \"$*\" >> \"$CALLS\"\n"
	"eval root=\\${$(($# - 1))}\n"
	"mkdir -p \"$root/usr/bin\" \"$root/proc\"\n"
	"case $FAKE in\n"
	"fail) echo 'E: Couldn'\"'\"'t find these debs: nope'; exit 1 ;;\n"
	"mount) mount -t tmpfs kverify-fake \"$root/proc\" || exit 1 ;;\n"
	"esac\n"
	"touch \"$root/usr/bin/x86_64-linux-gnu-gcc-14\"\n";

/* The machine's apt configuration: $NO_VALID_UNTIL set turns the check off. */
static const char fake_apt_config[] =
	"#!/bin/sh\n"
	"[ \"$*\" = 'shell V Acquire::Check-Valid-Until' ] || exit 1\n"
	"[ -z \"$NO_VALID_UNTIL\" ] || echo \"V='false'\"\n";

static int nr_calls(void)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;
	size_t i;

	strbuf_read_file(&sb, calls, 1 << 16);
	for (i = 0; i < sb.len; i++)
		n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n;
}

static int setup(void **state)
{
	char *bin, *path;

	(void)state;
	dir = xstrfmt("%s/kverify-toolchain.XXXXXX",
		      getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	bin = xstrfmt("%s/bin", dir);
	mkdir_p(bin);
	path = xstrfmt("%s/mmdebstrap", bin);
	if (write_file_atomic(path, fake, strlen(fake)) || chmod(path, 0755))
		return -1;
	free(path);
	path = xstrfmt("%s/apt-config", bin);
	if (write_file_atomic(path, fake_apt_config, strlen(fake_apt_config)) ||
	    chmod(path, 0755))
		return -1;
	free(path);
	path = xstrfmt("%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
	free(bin);
	cache = xstrfmt("%s/cache", dir);
	log_path = xstrfmt("%s/log", dir);
	calls = xstrfmt("%s/calls", dir);
	setenv("CALLS", calls, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(dir);
	free(dir);
	free(cache);
	free(log_path);
	free(calls);
	return 0;
}

static int get(char **root, struct strbuf *why)
{
	strbuf_reset(why);
	struct options opt = {
		.cache = cache,
		.debian_mirror = "http://mirror.invalid/debian",
	};

	return toolchain_get(&opt, "trixie-backports", "gcc-14-for-host",
			     log_path, root, why);
}

static void made_once(void **state)
{
	struct strbuf why = STRBUF_INIT, args = STRBUF_INIT;
	char *root = NULL, *want, *at;
	struct stat st;

	(void)state;
	rm_rf(cache);
	unlink(calls);
	setenv("FAKE", "ok", 1);
	unsetenv("NO_VALID_UNTIL");
	assert_int_equal(get(&root, &why), 0);
	want = xstrfmt("%s/toolchains/trixie-gcc-14-for-host", cache);
	assert_string_equal(root, want);
	/* the release of the suite, into a .tmp, from the mirror */
	strbuf_read_file(&args, calls, 1 << 16);
	free(want);
	want = xstrfmt("--variant=minbase --mode=root --dpkgopt=force-unsafe-io --include=gcc-14-for-host,make,binutils,libc6-dev,libelf-dev,dwarves,ccache trixie %s/toolchains/trixie-gcc-14-for-host.tmp http://mirror.invalid/debian\n",
		       cache);
	assert_string_equal(args.buf, want);
	/* the cache's mount point inside */
	at = xstrfmt("%s%s", root, cache);
	assert_int_equal(stat(at, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	free(root);
	root = NULL;
	/* made once */
	assert_int_equal(get(&root, &why), 0);
	assert_int_equal(nr_calls(), 1);
	free(root);
	free(at);
	free(want);
	strbuf_release(&args);
	strbuf_release(&why);
}

/* The machine's apt does not check Valid-Until: nor does mmdebstrap's. */
static void machine_valid_until_passed_on(void **state)
{
	struct strbuf why = STRBUF_INIT, args = STRBUF_INIT;
	char *root = NULL;

	(void)state;
	rm_rf(cache);
	unlink(calls);
	setenv("FAKE", "ok", 1);
	setenv("NO_VALID_UNTIL", "1", 1);
	assert_int_equal(get(&root, &why), 0);
	unsetenv("NO_VALID_UNTIL");
	strbuf_read_file(&args, calls, 1 << 16);
	assert_non_null(strstr(args.buf,
			       " --dpkgopt=force-unsafe-io --aptopt=Acquire::Check-Valid-Until \"false\" --include="));
	free(root);
	strbuf_release(&args);
	strbuf_release(&why);
}

static void failure_leaves_nothing(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char *root = (char *)"unset", *made, *tmp;

	(void)state;
	rm_rf(cache);
	unlink(calls);
	setenv("FAKE", "fail", 1);
	assert_int_equal(get(&root, &why), -1);
	assert_null(root);
	assert_non_null(strstr(why.buf, "mmdebstrap"));
	made = xstrfmt("%s/toolchains/trixie-gcc-14-for-host", cache);
	tmp = xstrfmt("%s.tmp", made);
	assert_int_not_equal(access(made, F_OK), 0);
	/* the half-made root is not trusted: made anew, then moved */
	assert_int_equal(access(tmp, F_OK), 0);
	setenv("FAKE", "ok", 1);
	assert_int_equal(get(&root, &why), 0);
	assert_int_equal(nr_calls(), 2);
	assert_int_not_equal(access(tmp, F_OK), 0);
	free(root);
	free(made);
	free(tmp);
	strbuf_release(&why);
}

static void changed_packages_make_it_again(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char *root = NULL, *stamp;

	(void)state;
	rm_rf(cache);
	unlink(calls);
	setenv("FAKE", "ok", 1);
	assert_int_equal(get(&root, &why), 0);
	stamp = xstrfmt("%s/.kverify-toolchain", root);
	assert_int_equal(write_file_atomic(stamp, "trixie gcc-14-for-host,make", 27), 0);
	free(root);
	assert_int_equal(get(&root, &why), 0);
	assert_int_equal(nr_calls(), 2);
	free(root);
	free(stamp);
	strbuf_release(&why);
}

static void mounts_go_with_mmdebstrap(void **state)
{
	struct strbuf why = STRBUF_INIT, mounts = STRBUF_INIT;
	char *root = NULL;

	(void)state;
	if (geteuid())
		skip();
	rm_rf(cache);
	unlink(calls);
	setenv("FAKE", "mount", 1);
	assert_int_equal(get(&root, &why), 0);
	strbuf_read_file(&mounts, "/proc/self/mounts", 1 << 20);
	assert_null(strstr(mounts.buf, "kverify-fake"));
	free(root);
	strbuf_release(&mounts);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(made_once),
		cmocka_unit_test(machine_valid_until_passed_on),
		cmocka_unit_test(failure_leaves_nothing),
		cmocka_unit_test(changed_packages_make_it_again),
		cmocka_unit_test(mounts_go_with_mmdebstrap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
