// SPDX-License-Identifier: GPL-2.0
/*
 * selftests: the KVM selftests the guest runs, built static from the tree:
 * the tests the series adds, pmu_counters_test and pmu_event_filter_test
 * where the tree has them, and cpuid_test, a control that needs no PMU.
 * They read the patched tree and its uapi headers (`make headers`, which
 * needs no .config), not the kernel's build, so the step runs beside
 * config and build, in a directory of its own: the config step empties
 * the kernel's build directory when the source changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "steps/step_selftests.h"
#include "steps/steps.h"

static const char *const stock_tests[] = {
	"cpuid_test", "pmu_counters_test", "pmu_event_filter_test",
};

static void pick_tests(const struct verify_ctx *ctx, struct selftests_out *out,
		       struct strvec *names)
{
	struct strvec added = STRVEC_INIT;
	char *prefix = xstrfmt("tools/testing/selftests/kvm/%s/",
			       out->arch);
	size_t i, n = strlen(prefix);

	series_files(series_of(ctx), &added, 1);
	for (i = 0; i < added.nr; i++) {
		const char *f = added.v[i];
		size_t len = strlen(f);

		if (starts_with(f, prefix) && len > n + 2 &&
		    !strcmp(f + len - 2, ".c") && !strchr(f + n, '/')) {
			char *name = xstrfmt("%.*s", (int)(len - n - 2), f + n);

			strvec_push(&out->new_tests, name);
			strvec_push(names, name);
			free(name);
		}
	}
	for (i = 0; i < ARRAY_SIZE(stock_tests); i++) {
		char *src = xstrfmt("%s/%s%s.c", ctx->tree, prefix,
				    stock_tests[i]);

		if (is_file(src))
			strvec_push(names, stock_tests[i]);
		free(src);
	}
	strvec_clear(&added);
	free(prefix);
}

/*
 * The selftests' stamp, in their output directory: what both makes (the
 * tree's uapi headers, then the tests) were made from, and the tests as
 * they left them.  While it is unchanged, neither make runs (each would
 * walk its tree to find nothing to do).
 */
static char *selftests_stamp(const struct verify_ctx *ctx, const char *kernel,
			     const struct child *headers,
			     const struct child *tests,
			     const struct strvec *bins)
{
	char *a = make_stamp_in(ctx, kernel, headers, NULL);
	char *b = make_stamp_in(ctx, kernel, tests, NULL);
	uint64_t h = hash_bytes(HASH_INIT, a, strlen(a));
	char *stamp;
	size_t i;

	h = hash_bytes(h, b, strlen(b));
	for (i = 0; i < bins->nr; i++)
		h = hash_stat(h, bins->v[i]);
	stamp = xstrfmt("%016llx", (unsigned long long)h);
	free(a);
	free(b);
	return stamp;
}

/*
 * Their directory, <cache>/build/<target>-kselftest, emptied when the
 * source it was made from is not this run's (its files' mtimes are the
 * tarball's: make could take an old object for current).
 */
static char *claim_dir(const struct verify_ctx *ctx)
{
	char *dir = cache_path(ctx, "build/%s-kselftest", ctx->t->name);

	claim_for_source(ctx, dir);
	return dir;
}

/* The image the guest boots is built: not with --build=objects. */
static int boots_a_kernel(const struct verify_ctx *ctx)
{
	return ctx->kernel_ops->prebuilt ||
	       (ctx->opt->mode != BUILD_OBJECTS &&
		!ctx->kernel_ops->objects_only);
}

static enum step_status build_selftests(const struct verify_ctx *ctx,
					struct selftests_out *out,
					struct step_result *r)
{
	char *kvm = xstrfmt("%s/tools/testing/selftests/kvm", ctx->tree);
	char *dir = NULL, *objdir = NULL, *x86 = xstrfmt("%s/x86", kvm);
	char *stamp_path = NULL, *stamp = NULL, *had = NULL;
	struct strvec names = STRVEC_INIT;
	struct child headers = CHILD_INIT, c = CHILD_INIT;
	char *kernel = NULL;	/* make headers' objtree: no .config */
	enum step_status st = STEP_FAIL;
	const char *rw[3] = { NULL };
	size_t i;

	if (!boots_a_kernel(ctx)) {
		strbuf_addstr(&r->reason, "no kernel image to run them in (--build=objects)");
		st = STEP_SKIP;
		goto out;
	}
	dir = claim_dir(ctx);
	objdir = xstrfmt("%s/kvm", dir);
	stamp_path = xstrfmt("%s/.kverify-selftests", objdir);
	out->arch = xstrdup(is_dir(x86) ? "x86" : "x86_64");
	pick_tests(ctx, out, &names);
	kernel = xstrfmt("%s/kernel", dir);
	make_args_in(ctx, kernel, &headers);
	strvec_push(&headers.args, "headers");
	strvec_pushl(&c.args, "make", "-C", kvm, NULL);
	make_jobs(ctx, &c);
	strvec_pushf(&c.args, "OUTPUT=%s", objdir);
	strvec_pushf(&c.args, "KHDR_INCLUDES=-isystem %s/kernel/usr/include",
		     dir);
	strvec_push(&c.args, "USERLDFLAGS=-static");
	for (i = 0; i < names.nr; i++) {
		char *bin = xstrfmt("%s/%s/%s", objdir, out->arch,
				    names.v[i]);

		strvec_push(&c.args, bin);
		strvec_push(&out->bins, bin);
		free(bin);
	}
	stamp = selftests_stamp(ctx, kernel, &headers, &c, &out->bins);
	had = read_first_line(stamp_path);
	if (had && !strcmp(had, stamp)) {
		strbuf_addstr(&r->reason, "up to date: tree, make commands and compiler unchanged since their build; ");
	} else {
		unlink(stamp_path);
		rw[0] = dir;
		rw[1] = ccache_dir(&headers);
		if (step_run_sandboxed(ctx, r, &headers, rw))
			goto out;
		mkdir_p(objdir);
		if (step_run_sandboxed(ctx, r, &c, rw))
			goto out;
		free(stamp);
		stamp = selftests_stamp(ctx, kernel, &headers, &c, &out->bins);
		write_file_atomic(stamp_path, stamp, strlen(stamp));
	}
	strbuf_addf(&r->reason, "%zu static tests:", names.nr);
	for (i = 0; i < names.nr; i++)
		strbuf_addf(&r->reason, " %s", names.v[i]);
	st = STEP_PASS;
out:
	child_clear(&headers);
	child_clear(&c);
	strvec_clear(&names);
	free(kernel);
	free(kvm);
	free(dir);
	free(objdir);
	free(x86);
	free(stamp_path);
	free(stamp);
	free(had);
	return st;
}

static void selftests_clear(void *out)
{
	struct selftests_out *st = out;

	free(st->arch);
	strvec_clear(&st->bins);
	strvec_clear(&st->new_tests);
}

/* Beside: "arch <arch>", then "bin <path>" and "new <name>" lines. */
static void selftests_save(const void *out, struct strbuf *sb)
{
	const struct selftests_out *st = out;
	size_t i;

	if (!st->arch)
		return;
	strbuf_addf(sb, "arch %s\n", st->arch);
	for (i = 0; i < st->bins.nr; i++)
		strbuf_addf(sb, "bin %s\n", st->bins.v[i]);
	for (i = 0; i < st->new_tests.nr; i++)
		strbuf_addf(sb, "new %s\n", st->new_tests.v[i]);
}

static int selftests_load(void *out, struct strbuf *sb)
{
	struct selftests_out *st = out;
	char *line, *save = NULL;
	const char *v;

	for (line = strtok_r(sb->buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (skip_prefix(line, "arch ", &v) && !st->arch)
			st->arch = xstrdup(v);
		else if (skip_prefix(line, "bin ", &v))
			strvec_push(&st->bins, v);
		else if (skip_prefix(line, "new ", &v))
			strvec_push(&st->new_tests, v);
		else
			return -1;
	}
	return 0;
}

static enum step_status selftests_step_run(const struct verify_ctx *ctx, void *out,
					   struct step_result *r)
{
	return build_selftests(ctx, out, r);
}

const struct step selftests_step = {
	.name = "selftests",
	.run = selftests_step_run,
	.timeout = 1800,
	.flags = STEP_BESIDE,
	.needs = NEEDS(STEP_IDX_apply),
	STEP_OWN_OUTPUT(struct selftests_out),
	.clear_out = selftests_clear,
	.save_out = selftests_save,
	.load_out = selftests_load,
};
