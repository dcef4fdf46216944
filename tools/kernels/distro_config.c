// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG=distro: our own build of the tree's arch/x86/kvm objects with
 * Debian's amd64 config of the same version (the fetch step fetched its
 * linux-config package), to see the series build in the config Debian
 * ships.  Nothing boots it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel.h"
#include "lib/fsutil.h"

/* Debian's own config, made buildable here, and KVM must be in it. */
enum step_status configure_distro(const struct verify_ctx *ctx,
				  struct config_out *out, struct step_result *r)
{
	static const char *const kvm[] = { "KVM", "KVM_INTEL", "KVM_AMD" };
	char *from = distro_config_path(ctx), *to, *script;
	struct strbuf cfg = STRBUF_INIT;
	struct child c = CHILD_INIT;
	size_t i;
	int ret;

	(void)out;	/* it records nothing there */
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

char *distro_config_name(const struct verify_ctx *ctx)
{
	return xstrfmt("Debian config-amd64 of %s", ctx->t->deb_package ?
		       ctx->t->deb_package : ctx->t->source);
}
