// SPDX-License-Identifier: GPL-2.0
/*
 * Our own kernel, configured and built from the tree.
 *
 * config: the base config named in the fragment ("# base: allnoconfig")
 * and the fragment's options, in the O= directory.  Every option the
 * fragment asks for must survive, or the step fails.
 *
 * An all*config base takes the fragment as KCONFIG_ALLCONFIG: one Kconfig
 * pass, and every option the fragment does not name is off (allnoconfig),
 * so enabling ACPI does not bring in the "default y" drivers olddefconfig
 * would.  Any other base (tinyconfig, defconfig) is made first; the
 * fragment's options are then set with the tree's own scripts/config and
 * the result settled the same way, with allnoconfig.
 *
 * build: the kernel image (bzImage) in the O= directory, or only the
 * arch/x86/kvm objects with --build=objects or a kernel whose build is
 * objects only (CONFIG=distro).  A compiler warning in a file the series
 * touches fails the step: the patch must build clean.
 *
 * A finished build leaves a stamp of what it was made from; while that is
 * unchanged, make is not run again (kbuild would spend ~8 s walking the
 * tree to find nothing to do).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/series.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/hash.h"

#define DEFAULT_FRAGMENT "configs/kvm-guest.config"

struct option_line {
	char *name;		/* without CONFIG_ */
	char *value;		/* "y", "m", "n" or the value */
};

static const char *fragment_path(const struct verify_ctx *ctx)
{
	if (ctx->opt->config)
		return ctx->opt->config;
	return ctx->t->config ? ctx->t->config : DEFAULT_FRAGMENT;
}

/* Turn one fragment line into scripts/config arguments. */
static int config_arg(const char *line, struct strvec *args,
		      struct strvec *want)
{
	const char *eq, *opt;
	char *name;

	if (skip_prefix(line, "# CONFIG_", &opt) && strstr(line, " is not set")) {
		name = xstrfmt("%.*s", (int)strcspn(opt, " "), opt);
		strvec_pushl(args, "--disable", name, NULL);
		strvec_pushf(want, "%s=n", name);
		free(name);
		return 0;
	}
	eq = strchr(line, '=');
	if (!skip_prefix(line, "CONFIG_", &opt) || !eq)
		return line[0] == '#' || !line[0] ? 0 : -1;
	name = xstrfmt("%.*s", (int)(eq - opt), opt);
	if (!strcmp(eq + 1, "y"))
		strvec_pushl(args, "--enable", name, NULL);
	else if (!strcmp(eq + 1, "m"))
		strvec_pushl(args, "--module", name, NULL);
	else if (eq[1] == '"')
		strvec_pushl(args, "--set-val", name, eq + 1, NULL);
	else
		strvec_pushl(args, "--set-val", name, eq + 1, NULL);
	strvec_pushf(want, "%s=%s", name, eq + 1);
	free(name);
	return 0;
}

static int parse_fragment(const struct verify_ctx *ctx, struct step_result *r,
			  const char *text, char **base, struct strvec *args,
			  struct strvec *want)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	int n = 0, ret = 0;

	*base = NULL;
	for (line = strtok_r(copy, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *val;

		n++;
		if (skip_prefix(line, "# base: ", &val)) {
			free(*base);
			*base = xstrdup(val);
		} else if (config_arg(line, args, want)) {
			strbuf_addf(&r->reason, "%s:%d: not a config line: %s",
				    fragment_path(ctx), n, line);
			ret = -1;
		}
	}
	if (!ret && !*base)
		*base = xstrdup("tinyconfig");
	free(copy);
	return ret;
}

/* Every wanted option as olddefconfig left it. */
static int check_survived(const struct verify_ctx *ctx, struct step_result *r,
			  const struct strvec *want)
{
	char *path = xstrfmt("%s/.config", build_dir(ctx));
	struct strbuf cfg = STRBUF_INIT;
	size_t i;
	int lost = 0;

	if (strbuf_read_file(&cfg, path, 16 << 20) < 0) {
		/* ELOOP: the tree's make left a symlink there (lib/guard.c) */
		strbuf_addf(&r->reason, "cannot read %s: %s", path,
			    strerror(errno));
		free(path);
		return -1;
	}
	for (i = 0; i < want->nr; i++) {
		const char *eq = strchr(want->v[i], '=');
		char *line;
		int ok;

		if (!strcmp(eq + 1, "n"))
			line = xstrfmt("# CONFIG_%.*s is not set\n",
				       (int)(eq - want->v[i]), want->v[i]);
		else
			line = xstrfmt("CONFIG_%s\n", want->v[i]);
		ok = strstr(cfg.buf, line) != NULL;
		if (!ok && !strcmp(eq + 1, "n")) {
			free(line);
			line = xstrfmt("CONFIG_%.*s=",
				       (int)(eq - want->v[i]), want->v[i]);
			ok = !strstr(cfg.buf, line);
		}
		if (!ok) {
			strbuf_addf(&r->detail, "CONFIG_%s was not kept by olddefconfig\n",
				    want->v[i]);
			lost++;
		}
		free(line);
	}
	if (lost)
		strbuf_addf(&r->reason, "%d option(s) of %s dropped by olddefconfig (dependencies missing?)",
			    lost, fragment_path(ctx));
	strbuf_release(&cfg);
	free(path);
	return lost ? -1 : 0;
}

/* One Kconfig pass: the fragment is the "all" config's starting point. */
static int allconfig(const struct verify_ctx *ctx, struct step_result *r,
		     const char *base, const char *fragment)
{
	struct child c = CHILD_INIT;
	int ret;

	make_args(ctx, &c);
	strvec_pushf(&c.args, "KCONFIG_ALLCONFIG=%s", fragment);
	strvec_push(&c.args, base);
	ret = step_run_in_build(ctx, r, &c);
	child_clear(&c);
	return ret;
}

/* allnoconfig with the merged config as KCONFIG_ALLCONFIG. */
static int settle(const struct verify_ctx *ctx, struct step_result *r)
{
	char *cfg = xstrfmt("%s/.config", build_dir(ctx));
	char *merged = xstrfmt("%s/.config.kverify-merged", build_dir(ctx));
	int ret = rename(cfg, merged);

	if (ret) {
		strbuf_addf(&r->reason, "rename %s: %m", cfg);
		goto out;
	}
	ret = allconfig(ctx, r, "allnoconfig", merged);
out:
	free(cfg);
	free(merged);
	return ret;
}

static int is_allconfig(const char *base)
{
	static const char *const all[] = {
		"allnoconfig", "allyesconfig", "allmodconfig", "alldefconfig",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(base, all[i]))
			return 1;
	return 0;
}

static int make_config(const struct verify_ctx *ctx, struct step_result *r,
		       const char *base, const struct strvec *args,
		       const char *fragment)
{
	struct child c = CHILD_INIT;
	char *script = xstrfmt("%s/scripts/config", ctx->tree);
	size_t i;
	int ret;

	if (is_allconfig(base)) {
		ret = allconfig(ctx, r, base, fragment);
		goto out;
	}
	make_args(ctx, &c);
	strvec_push(&c.args, base);
	ret = step_run_in_build(ctx, r, &c);
	child_clear(&c);
	if (ret)
		goto out;
	strvec_pushl(&c.args, "bash", script, "--file", NULL);
	strvec_pushf(&c.args, "%s/.config", build_dir(ctx));
	for (i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	ret = step_run_in_build(ctx, r, &c);
	child_clear(&c);
	if (ret)
		goto out;
	ret = settle(ctx, r);
	if (ret)
		goto out;
	make_args(ctx, &c);
	strvec_push(&c.args, "olddefconfig");
	ret = step_run_in_build(ctx, r, &c);
	child_clear(&c);
out:
	free(script);
	return ret;
}

char *own_config_name(const struct verify_ctx *ctx)
{
	return xstrdup(fragment_path(ctx));
}

enum step_status configure_own_kernel(const struct verify_ctx *ctx,
				      struct config_out *out,
				      struct step_result *r)
{
	struct strvec args = STRVEC_INIT, want = STRVEC_INIT;
	struct strbuf frag = STRBUF_INIT;
	char *frag_path = xstrfmt("%s/%s", ctx->repo, fragment_path(ctx));
	char *stamp_path = NULL, *base = NULL, *stamp = NULL, *had = NULL;
	enum step_status st = STEP_FAIL;
	uint64_t h;

	(void)out;	/* our own kernel records nothing there */
	stamp_path = xstrfmt("%s/.kverify-config", build_dir(ctx));
	if (strbuf_read_file(&frag, frag_path, 1 << 20) < 0) {
		strbuf_addf(&r->reason, "cannot read config fragment %s",
			    fragment_path(ctx));
		goto out;
	}
	if (parse_fragment(ctx, r, frag.buf, &base, &args, &want))
		goto out;
	claim_for_source(ctx, build_dir(ctx));
	h = hash_bytes(HASH_INIT, frag.buf, frag.len);
	stamp = xstrfmt("%016llx", (unsigned long long)h);
	had = read_first_line(stamp_path);
	if (had && !strcmp(had, stamp)) {
		strbuf_addf(&r->reason, "%s unchanged", fragment_path(ctx));
		st = STEP_PASS;
		goto out;
	}
	unlink(stamp_path);
	if (make_config(ctx, r, base, &args, frag_path) ||
	    check_survived(ctx, r, &want))
		goto out;
	write_file_atomic(stamp_path, stamp, strlen(stamp));
	strbuf_addf(&r->reason, "%s + %s: %zu options kept", base,
		    fragment_path(ctx), want.nr);
	st = STEP_PASS;
out:
	strvec_clear(&args);
	strvec_clear(&want);
	strbuf_release(&frag);
	free(frag_path);
	free(stamp_path);
	free(base);
	free(stamp);
	free(had);
	return st;
}


static int build_is_current(const struct verify_ctx *ctx, const char *stamp)
{
	char *path = xstrfmt("%s/.kverify-build", build_dir(ctx));
	char *had = read_first_line(path);
	int ok = had && !strcmp(had, stamp);

	free(had);
	free(path);
	return ok;
}

static void write_build_stamp(const struct verify_ctx *ctx, const char *stamp)
{
	char *path = xstrfmt("%s/.kverify-build", build_dir(ctx));

	if (stamp)
		write_file_atomic(path, stamp, strlen(stamp));
	else
		unlink(path);
	free(path);
}

enum step_status build_own_kernel(const struct verify_ctx *ctx,
				  struct build_out *out, struct step_result *r)
{
	int objects = ctx->opt->mode == BUILD_OBJECTS ||
		      kernel_of(ctx)->objects_only;
	char *output = xstrfmt("%s/%s", build_dir(ctx), objects ?
			       "arch/x86/kvm/built-in.a" : "arch/x86/boot/bzImage");
	enum step_status st = STEP_FAIL;
	struct child c = CHILD_INIT;
	long h0 = 0, m0 = 0, h1, m1;
	int ret, ccache;
	char *stamp = NULL;

	ccache = make_args(ctx, &c) && !ccache_counts(ctx, &h0, &m0);
	strvec_push(&c.args, objects ? "arch/x86/kvm/" : "bzImage");
	out->ccache_hits = out->ccache_misses = -1;
	stamp = make_stamp(ctx, &c, output);
	if (build_is_current(ctx, stamp)) {
		strbuf_addstr(&r->reason, "up to date: tree, .config, make command and compiler unchanged since the last build");
		out->kernel_built = !objects;
		st = STEP_PASS;
		goto out;
	}
	write_build_stamp(ctx, NULL);
	ret = step_run_in_build(ctx, r, &c);
	if (ccache && !ccache_counts(ctx, &h1, &m1)) {
		out->ccache_hits = h1 - h0;
		out->ccache_misses = m1 - m0;
	}
	if (ret)
		goto out;
	if (new_warnings(ctx, r))
		goto out;
	out->kernel_built = !objects;
	strbuf_addstr(&r->reason, objects ? "arch/x86/kvm/ objects built" :
			"bzImage built");
	if (out->ccache_hits >= 0)
		strbuf_addf(&r->reason, "; ccache %ld hits, %ld misses",
			    out->ccache_hits, out->ccache_misses);
	free(stamp);
	stamp = make_stamp(ctx, &c, output);
	write_build_stamp(ctx, stamp);
	st = STEP_PASS;
out:
	child_clear(&c);
	free(output);
	free(stamp);
	return st;
}
