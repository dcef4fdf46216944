// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox code from the tree under test runs in: what it can write,
 * read and reach.  Run as root (as CI runs it), what a sandboxed command
 * does is nobody's; as another user it is that user's, in namespaces.
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
#include "../../tools/lib/sandbox.h"

static char *base;

static const char *getcwd_or_die(void)
{
	static char cwd[4096];

	if (!getcwd(cwd, sizeof(cwd)))
		fail_msg("getcwd failed");
	return cwd;
}

/* Run "sh -c @script" in a sandbox with @base/ro read only and @base/rw. */
static int sandboxed(const char *script, struct strbuf *out)
{
	struct sandbox sb = SANDBOX_INIT;
	struct strbuf why = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret;

	strvec_pushf(&sb.ro, "%s/ro", base);
	strvec_pushf(&sb.rw, "%s/rw", base);
	strvec_pushl(&c.args, "sh", "-c", script, NULL);
	c.out = out;
	c.err_to_out = 1;
	c.dir = sb.rw.v[0];
	ret = sandbox_child(&c, &sb, &why);
	if (!ret)
		ret = run_child(&c);
	else
		print_message("%s\n", why.buf);
	child_clear(&c);
	sandbox_clear(&sb);
	strbuf_release(&why);
	return ret;
}

static int setup(void **state)
{
	char *p;

	(void)state;
	base = xstrdup("/tmp/kverify-sandbox-XXXXXX");
	if (!mkdtemp(base))
		return -1;
	p = xstrfmt("%s/ro", base);
	mkdir(p, 0755);
	free(p);
	p = xstrfmt("%s/rw", base);
	mkdir(p, 0755);
	free(p);
	p = xstrfmt("%s/ro/public", base);
	write_file(p, "public\n", 7);
	free(p);
	p = xstrfmt("%s/ro/private", base);
	write_file(p, "private\n", 8);
	chmod(p, 0600);
	free(p);
	p = xstrfmt("%s/hidden", base);
	write_file(p, "hidden\n", 7);
	free(p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(base);
	free(base);
	return 0;
}

static void writes_only_its_directory(void **state)
{
	struct strbuf out = STRBUF_INIT;
	static const char fmt[] = "echo made > made && cat made && { echo x > %s/ro/new; } 2>/dev/null || echo ro-refused; { echo x > /etc/kverify-sandbox; } 2>/dev/null || echo etc-refused; echo t > /tmp/kverify-sandbox-%d && echo private-tmp";
	char *script = xstrfmt(fmt, base, (int)getpid());
	char *made = xstrfmt("%s/rw/made", base);
	char *new = xstrfmt("%s/ro/new", base);
	char *host_tmp = xstrfmt("/tmp/kverify-sandbox-%d", (int)getpid());

	(void)state;
	assert_int_equal(sandboxed(script, &out), 0);
	assert_string_equal(out.buf, "made\nro-refused\netc-refused\nprivate-tmp\n");
	assert_true(is_file(made));
	assert_false(is_file(new));
	assert_false(is_file("/etc/kverify-sandbox"));
	assert_false(is_file(host_tmp));
	free(script);
	free(made);
	free(new);
	free(host_tmp);
	strbuf_release(&out);
}

static void reads_only_what_it_may(void **state)
{
	struct strbuf out = STRBUF_INIT;
	static const char fmt[] = "cat %s/ro/public; cat %s/ro/private 2>/dev/null || echo private-refused; cat %s/hidden 2>/dev/null || echo hidden-gone; ls -A '%s' | grep -qv '^\\.cache$' && echo home-visible || echo home-hidden";
	const char *home = getenv("HOME");
	char *script = xstrfmt(fmt, base, base, base, home ? home : "/");

	(void)state;
	assert_int_equal(sandboxed(script, &out), 0);
	if (geteuid())	/* our own user may read its own file */
		assert_string_equal(out.buf, "public\nprivate\nhidden-gone\nhome-hidden\n");
	else
		assert_string_equal(out.buf, "public\nprivate-refused\nhidden-gone\nhome-hidden\n");
	free(script);
	strbuf_release(&out);
}

static void no_network_no_privilege(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(sandboxed("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; "
				   "id -u; grep CapEff /proc/self/status", &out), 0);
	if (geteuid())
		assert_non_null(strstr(out.buf, "lo\n"));
	else
		assert_string_equal(out.buf, "lo\n65534\nCapEff:\t0000000000000000\n");
	strbuf_release(&out);
}

/*
 * Of our environment only what the sandbox passes (PATH, the locale) and
 * what the caller gives the command; $HOME is an empty directory of its
 * own, which it may write.
 */
static void environment_is_its_own(void **state)
{
	struct sandbox sb = SANDBOX_INIT;
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *path = xstrfmt("\nPATH=%s\n", getenv("PATH"));

	(void)state;
	setenv("KVERIFY_UNIT_SECRET", "s3cr3t", 1);
	setenv("LC_TIME", "C", 1);
	strvec_pushl(&c.args, "sh", "-c", "echo; env; touch ~/x && ls -A ~",
		     NULL);
	strvec_push(&c.env, "GIVEN=1");
	c.out = &out;
	c.err_to_out = 1;
	assert_int_equal(sandbox_child(&c, &sb, &why), 0);
	assert_int_equal(run_child(&c), 0);
	assert_null(strstr(out.buf, "s3cr3t"));
	assert_non_null(strstr(out.buf, "\nGIVEN=1\n"));
	assert_non_null(strstr(out.buf, "\nLC_TIME=C\n"));
	assert_non_null(strstr(out.buf, "\nHOME=/tmp/home\n"));
	assert_non_null(strstr(out.buf, path));
	assert_non_null(strstr(out.buf, "\nx\n"));
	unsetenv("KVERIFY_UNIT_SECRET");
	child_clear(&c);
	sandbox_clear(&sb);
	strbuf_release(&why);
	strbuf_release(&out);
	free(path);
}

/*
 * What comes back must be reachable by the sandbox's user under a directory
 * it cannot search: a cache under root's home (mode 700), on the host or
 * in a toolchain's chroot, whose own /root is mode 700 too.  Made in the
 * checkout's build/ (not /tmp, which is the sandbox's own, nor $HOME,
 * which it hides); a chroot of the host's /usr, bound in.
 */
static void reaches_under_closed_dirs(void **state)
{
	char *dir = xstrfmt("%s/build/test-sandbox-XXXXXX", getcwd_or_die());
	char *chroot_dir, *p;
	static const char *const links[] = { "bin", "lib", "lib64", "sbin" };
	static const char *const mounts[] = { "dev", "proc", "tmp" };
	size_t i;
	int pass;

	(void)state;
	if (!mkdtemp(dir))
		fail_msg("cannot make %s", dir);
	p = xstrfmt("%s/closed/ro", dir);
	assert_int_equal(mkdir_p(p), 0);
	free(p);
	p = xstrfmt("%s/closed/ro/public", dir);
	write_file(p, "public\n", 7);
	free(p);
	p = xstrfmt("%s/closed", dir);
	chmod(p, 0700);
	free(p);

	chroot_dir = xstrfmt("%s/chroot", dir);
	p = xstrfmt("%s%s/closed", chroot_dir, dir);
	assert_int_equal(mkdir_p(p), 0);
	chmod(p, 0700);
	free(p);
	for (i = 0; i < ARRAY_SIZE(links); i++) {
		char *at = xstrfmt("%s/%s", chroot_dir, links[i]);
		char *to = xstrfmt("usr/%s", links[i]);

		assert_int_equal(symlink(to, at), 0);
		free(at);
		free(to);
	}
	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		p = xstrfmt("%s/%s", chroot_dir, mounts[i]);
		mkdir(p, 0755);
		free(p);
	}

	for (pass = 0; pass < 2; pass++) {
		struct sandbox sb = SANDBOX_INIT;
		struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
		struct child c = CHILD_INIT;
		int ret;

		if (pass) {
			sb.root = chroot_dir;
			strvec_push(&sb.ro, "/usr");
		}
		strvec_pushf(&sb.ro, "%s/closed/ro", dir);
		strvec_pushl(&c.args, "sh", "-c", "cat \"$0\"/public",
			     sb.ro.v[sb.ro.nr - 1], NULL);
		c.out = &out;
		c.err_to_out = 1;
		ret = sandbox_child(&c, &sb, &why);
		if (!ret)
			ret = run_child(&c);
		if (ret || strcmp(out.buf, "public\n"))
			print_message("%s: %s%s\n", pass ? "chroot" : "host", why.buf, out.buf);
		assert_int_equal(ret, 0);
		assert_string_equal(out.buf, "public\n");
		child_clear(&c);
		sandbox_clear(&sb);
		strbuf_release(&why);
		strbuf_release(&out);
	}
	rm_rf(dir);
	free(chroot_dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_only_its_directory),
		cmocka_unit_test(reads_only_what_it_may),
		cmocka_unit_test(no_network_no_privilege),
		cmocka_unit_test(environment_is_its_own),
		cmocka_unit_test(reaches_under_closed_dirs),
	};

	if (!path_has("bwrap")) {
		printf("1..0 # SKIP bubblewrap is not installed\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
