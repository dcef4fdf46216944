// SPDX-License-Identifier: GPL-2.0
/*
 * make bundle's LAVA jobs name what they run: write_jobs() fills each of
 * tools/lava/'s templates with the target, its package version, kverify's
 * version and the series' revision, change-id, KCIDB patchset hash and
 * posted Message-Id ("none" for what a series has not).  Includes
 * bundle.c, for its static functions; runs from the repository (the
 * templates are its tools/lava/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/bundle.c"
#include "kernels/debian.h"

static const char *const jobs[] = {
	"lava-qemu-intel.yaml", "lava-qemu-amd.yaml", "lava-x86-intel.yaml",
	"lava-x86-amd.yaml", "lava-qemu-tcg.yaml",
};

/* Each job of @dir has the metadata line "  @key: '@value'". */
static void each_job_has(const char *dir, const char *key, const char *value)
{
	char *line = xstrfmt("\n  %s: '%s'\n", key, value);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(jobs); i++) {
		struct strbuf sb = STRBUF_INIT;
		char *path = xstrfmt("%s/%s", dir, jobs[i]);

		assert_int_equal(strbuf_read_file(&sb, path, 1 << 20), 0);
		if (!strstr(sb.buf, line))
			fail_msg("%s: no line%s", path, line);
		strbuf_release(&sb);
		free(path);
	}
	free(line);
}

/* A new directory in $TMPDIR (the test's), else /tmp. */
static char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	char *dir = xstrfmt("%s/bundle.XXXXXX", t && *t ? t : "/tmp");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static char *repo_dir(void)
{
	char *cwd = getcwd(NULL, 0);

	assert_non_null(cwd);
	return cwd;
}

static void jobs_for(struct series *s, const char *dir, const char *version)
{
	struct target t = {
		.name = "7.3", .kind = SRC_DEB, .deb_package = "linux-source-7.3",
		.source = "deb:linux-source-7.3@trixie-backports",
	};
	struct debian_state deb = {
		.image = "/cache/debian/x/boot/vmlinuz-7.3.4+deb13-amd64",
		.package = "linux-image-7.3.4+deb13-amd64",
		.release = "7.3.4+deb13-amd64",
	};
	struct verify_ctx ctx = { .t = &t, .repo = repo_dir(), .listed = *s,
				  .kernel_ops = &debian_kernel };
	struct bundle_kernel k;

	ctx.fetch.source.deb_version = (char *)version;
	ctx.config.debian = &deb;
	bundle_kernel(&ctx, &k);
	assert_string_equal(k.from, deb.image);
	assert_string_equal(k.file, "vmlinuz");
	assert_int_equal(write_jobs(&ctx, dir, "file:///srv/kverify", &k, "0",
				    "1"), 0);
	each_job_has(dir, "kverify.kernel",
		     "Debian linux-image-7.3.4+deb13-amd64 7.3.4-1~bpo13+1, the patched KVM modules in the initramfs");
	free(k.from);
	free(k.what);
	free(ctx.repo);
}

/* series/ as it is: its revision, change-id and hash; posted or not. */
static void series_named(void **state)
{
	struct series s = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *dir = tmp_dir(), *psh, *rev, host[256] = "";

	(void)state;
	assert_int_equal(series_load(&s, ".", "series", "test", &err), 0);
	assert_true(s.revision > 0 && s.change_id);
	psh = series_patchset_hash(&s);
	assert_true(psh && strlen(psh) == 64);
	rev = xstrfmt("%d", s.revision);
	free(s.message_id);
	s.message_id = NULL;
	jobs_for(&s, dir, "7.3.4-1~bpo13+1");
	each_job_has(dir, "kverify.series.revision", rev);
	each_job_has(dir, "kverify.series.change_id", s.change_id);
	each_job_has(dir, "kverify.series.patchset_hash", psh);
	each_job_has(dir, "kverify.series.message_id", "none");
	each_job_has(dir, "kverify.package.version", "7.3.4-1~bpo13+1");
	each_job_has(dir, "kverify.version", kverify_version);
	/* an id at this machine's own name, as make send's would be */
	assert_int_equal(gethostname(host, sizeof(host) - 1), 0);
	s.message_id = xstrfmt("kverify-unit-%d@%s", (int)getpid(), host);
	jobs_for(&s, dir, "7.3.4-1~bpo13+1");
	each_job_has(dir, "kverify.series.message_id", s.message_id);
	rm_rf(dir);
	free(dir);
	series_clear(&s);
	strbuf_release(&err);
	free(psh);
	free(rev);
}

/* A series without b4's tracking data: "none", never an empty value. */
static void series_without_posting(void **state)
{
	struct series s = { 0 };
	char *dir = tmp_dir();

	(void)state;
	s.dir = xstrdup("/nonexistent");
	jobs_for(&s, dir, "7.3.4-1~bpo13+1");
	each_job_has(dir, "kverify.series.revision", "none");
	each_job_has(dir, "kverify.series.change_id", "none");
	each_job_has(dir, "kverify.series.message_id", "none");
	each_job_has(dir, "kverify.series.patchset_hash", "");
	rm_rf(dir);
	free(dir);
	series_clear(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_named),
		cmocka_unit_test(series_without_posting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
