// SPDX-License-Identifier: GPL-2.0
/*
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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"
#include "debian/debian.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "steps/kernel.h"
#include "steps/steps.h"

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

/* Debian's own config, made buildable here, and KVM must be in it. */
static enum step_status configure_distro(const struct verify_ctx *ctx,
					 struct step_result *r)
{
	static const char *const kvm[] = { "KVM", "KVM_INTEL", "KVM_AMD" };
	char *from = distro_config_path(ctx), *to, *script;
	struct strbuf cfg = STRBUF_INIT;
	struct child c = CHILD_INIT;
	size_t i;
	int ret;

	if (!is_file(from)) {
		strbuf_addstr(&r->reason, "CONFIG=distro needs Debian's linux-config package, which only deb: sources have");
		free(from);
		return STEP_FAIL;
	}
	claim_for_source(ctx, build_dir(ctx));
	to = xstrfmt("%s/.config", build_dir(ctx));
	script = xstrfmt("%s/scripts/config", ctx->tree);
	ret = copy_file(from, to);
	if (ret)	/* ELOOP: a symlink the last build's make left (lib/guard.c) */
		strbuf_addf(&r->reason, "cannot write %s: %s; ", to,
			    strerror(errno));
	/* Debian's signing keys and BTF (pahole) are not here. */
	strvec_pushl(&c.args, "bash", script, "--file", to, "--set-str",
		     "SYSTEM_TRUSTED_KEYS", "", "--set-str",
		     "SYSTEM_REVOCATION_KEYS", "", "--disable", "DEBUG_INFO_BTF",
		     NULL);
	ret = ret || step_run_in_build(ctx, r, &c);
	child_clear(&c);
	make_args(ctx, &c);
	strvec_push(&c.args, "olddefconfig");
	ret = ret || step_run_in_build(ctx, r, &c);
	child_clear(&c);
	if (!ret)
		strbuf_read_file(&cfg, to, 16 << 20);
	strbuf_addstr(&r->reason, "Debian's amd64 config:");
	for (i = 0; !ret && i < ARRAY_SIZE(kvm); i++) {
		char *y = xstrfmt("\nCONFIG_%s=y\n", kvm[i]);
		char *m = xstrfmt("\nCONFIG_%s=m\n", kvm[i]);

		if (strstr(cfg.buf, y) || strstr(cfg.buf, m))
			strbuf_addf(&r->reason, " %s=%c", kvm[i],
				    strstr(cfg.buf, y) ? 'y' : 'm');
		else
			ret = -1;
		free(y);
		free(m);
	}
	strbuf_release(&cfg);
	free(from);
	free(to);
	free(script);
	return ret ? STEP_FAIL : STEP_PASS;
}

/*
 * The kernel wanted configures, and when it falls back (BOOT=auto without
 * Debian's compiler), the one it falls back to; @out records which.
 */
static enum step_status configure_kernel(const struct verify_ctx *ctx,
					 struct config_out *out, struct step_result *r)
{
	const struct kernel_ops *k = ctx->kernel_ops;
	enum step_status st = k->configure(ctx, out, r);

	if (st == STEP_PASS && out->boot_why && k->fallback) {
		strbuf_reset(&r->reason);	/* BOOT=auto: our own after all */
		k = k->fallback;
		st = k->configure(ctx, out, r);
	}
	out->kernel_ops = out->boot_why && k->fallback ? k->fallback : k;
	if (out->boot_why)
		strbuf_addf(&r->reason, "; our own kernel, not Debian's: %s",
			    out->boot_why);
	return st;
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
	if (distro_config(ctx->opt)) {
		st = configure_distro(ctx, r);
		goto out;
	}
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

static void config_clear(void *out)
{
	struct config_out *c = out;

	free(c->boot_why);
	free(c->build);
	free(c->kbuild);
	free(c->toolchain);
	debian_state_free(c->debian);
}

static enum step_status config_step_run(const struct verify_ctx *ctx, void *out,
					struct step_result *r)
{
	return configure_kernel(ctx, out, r);
}

const struct step config_step = {
	.name = "config",
	.run = config_step_run,
	.timeout = 600,
	.needs = NEEDS(STEP_IDX_fetch) | NEEDS(STEP_IDX_apply),
	STEP_OUTPUT(config),
	.clear_out = config_clear,
};
