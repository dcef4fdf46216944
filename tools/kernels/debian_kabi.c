// SPDX-License-Identifier: GPL-2.0
/*
 * The CRCs of a module dir beyond arch/x86/kvm (debian_kabi_dirs.c: "kABI
 * beyond arch/x86/kvm"), the kernel's own way but without compiling: it
 * is never booted, only its exported symbols' CRCs are compared.  The
 * dirs a KABI_DIRS list names are read here too (kabi_module_dirs()).
 *
 * With CONFIG_MODVERSIONS, kbuild compiles each object and, when it
 * exports symbols, appends to its .cmd what
 *
 *	$(CPP) -D__GENKSYMS__ $(c_flags) $< | scripts/genksyms/genksyms
 *
 * prints, "#SYMVER <symbol> <crc>" lines that modpost reads (6.1
 * scripts/Makefile.build:132,175-181; 6.12 :116,159-165; 7.2 :208,235-240;
 * 7.3 :209,236-241; genksyms.c prints them: 6.1 :690, 6.12 :688, 7.3
 * :689).  The same preprocessing here comes from kbuild itself: its
 * single target "%.i" runs $(CPP) $(c_flags) -o $@ $< (6.1
 * Makefile.build:120-124, 6.12 :104-108, 7.3 :187-191), and
 * KCPPFLAGS=-D__GENKSYMS__ puts the define into $(c_flags) through
 * KBUILD_CPPFLAGS (6.1 Makefile:1140, 6.12 :1079, 7.3 :1242).  Where it
 * sits among the flags does not matter: nothing in them undefines it, and
 * cpp takes every -D before the -include'd headers.  The genksyms of 6.1
 * and 6.12 gets "-r /dev/null" (Makefile.build:129, :113), 7.x "-r" only
 * for an existing .symref (Makefile.build:202, :203), and the trees have
 * none: genksyms reads a reference file and nothing else comes of -r
 * (genksyms.c:775-813 in each), so it runs with no option here.  Only
 * cpp and genksyms run, never the compiler proper: no object is made.
 *
 * Without CONFIG_MODVERSIONS (Debian's 7.x) there is no genksyms and
 * modpost writes 0x00000000 for each export; genksyms still finds every
 * EXPORT_SYMBOL*() of the preprocessed source (include/linux/export.h:
 * __GENKSYMS_EXPORT_SYMBOL() under __GENKSYMS__, 6.1 :69-71, 6.12 and 7.3
 * :50-52), so it names them and the CRC written is 0x00000000.  With
 * CONFIG_GENDWARFKSYMS (7.x) the CRCs come from the objects' DWARF
 * (Makefile.build:205-207 in 7.2, :206-208 in 7.3): that dir is compiled.
 *
 * Which objects make which module is kbuild's too: its "%.mod" single
 * target lists a module's objects (6.1 Makefile.build:260-264, 6.12
 * :239-243, 7.3 :300-304).  The modules are the "obj-" lines of the dir's
 * kbuild files set to m in Debian's .config, in the subdirs an "obj-" line
 * set to y or m names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/step.h"
#include "kernels/debian.h"
#include "lib/fsutil.h"

/* @sym's ("CONFIG_VFIO") value in @config ("\n"-led .config): 'y', 'm', 0. */
int config_value(const char *config, const char *sym)
{
	char *want = xstrfmt("\n%s=", sym);
	const char *at = strstr(config, want);
	int v = 0;

	if (at && (at[strlen(want)] == 'y' || at[strlen(want)] == 'm') &&
	    at[strlen(want) + 1] == '\n')
		v = at[strlen(want)];
	free(want);
	return v;
}

/* The value of an "obj-" line's condition ("m", "$(CONFIG_X)"), or 0. */
static int obj_condition(const char *cond, size_t len, const char *config)
{
	char *sym;
	int v;

	if (len == 1 && (*cond == 'y' || *cond == 'm'))
		return *cond;
	if (len < 11 || memcmp(cond, "$(CONFIG_", 9) || cond[len - 1] != ')')
		return 0;
	sym = xstrfmt("%.*s", (int)(len - 3), cond + 2);
	v = config_value(config, sym);
	free(sym);
	return v;
}

/*
 * The modules of @dir/@sub (@sub "" or "pci/") in @mods, "pci/vfio-pci-core"
 * (relative to @dir), and those of the subdirs it builds, from its kbuild
 * file (Kbuild, else Makefile, as scripts/Makefile.build reads them).
 */
static void dir_modules(const char *dir, const char *sub, const char *config,
			struct strvec *mods, int depth)
{
	struct strbuf text = STRBUF_INIT;
	char *path = xstrfmt("%s/%sKbuild", dir, sub), *p, *line, *save = NULL;

	if (!is_file(path)) {
		free(path);
		path = xstrfmt("%s/%sMakefile", dir, sub);
	}
	strbuf_read_file(&text, path, 1 << 20);
	for (p = text.buf; (p = strstr(p, "\\\n")); )
		p[0] = p[1] = ' ';
	for (line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(line, " \t+:=");
		int v = starts_with(line, "obj-") ?
			obj_condition(line + 4, n - 4, config) : 0;
		char *tok, *tsave = NULL;

		line[strcspn(line, "#")] = '\0';
		line += n + strspn(line + n, " \t");
		if (!v || !(starts_with(line, "+=") || starts_with(line, ":=") ||
			    starts_with(line, "=")))
			continue;
		line += strspn(line, "+:=");
		for (tok = strtok_r(line, " \t", &tsave); tok;
		     tok = strtok_r(NULL, " \t", &tsave)) {
			char *s;

			if (v == 'm' && ends_with(tok, ".o")) {
				strvec_pushf(mods, "%s%.*s", sub,
					     (int)strlen(tok) - 2, tok);
			} else if (ends_with(tok, "/") && depth < 8 &&
				   !strstr(tok, "..")) {
				s = xstrfmt("%s%s", sub, tok);
				dir_modules(dir, s, config, mods, depth + 1);
				free(s);
			}
		}
	}
	strbuf_release(&text);
	free(path);
}

/*
 * kbuild's @goals (relative to M=) for @dir: the kvm modules' make (@kvm)
 * with M= that dir, no "modules" goal, KCPPFLAGS=-D__GENKSYMS__ and
 * without ccache, which cpp alone would not use; in the sandbox, writing
 * only the dir.
 */
static int kbuild_goals(const struct verify_ctx *ctx, struct step_result *r,
			const struct child *kvm, const char *dir,
			const struct strvec *goals)
{
	struct child c = CHILD_INIT;
	char *rw[2] = { NULL, NULL };
	size_t i;
	int ret;

	for (i = 0; i < kvm->args.nr; i++)
		if (starts_with(kvm->args.v[i], "M="))
			strvec_pushf(&c.args, "M=%s/%s", ctx->kvm_tree, dir);
		else if (strcmp(kvm->args.v[i], "modules"))
			strvec_push(&c.args, kvm->args.v[i]);
	strvec_push(&c.args, "KCPPFLAGS=-D__GENKSYMS__");
	for (i = 0; i < goals->nr; i++)
		strvec_push(&c.args, goals->v[i]);
	for (i = 0; i < kvm->env.nr; i++)
		if (!starts_with(kvm->env.v[i], "CCACHE") &&
		    !starts_with(kvm->env.v[i], "DEBIAN_KERNEL_USE_CCACHE="))
			strvec_push(&c.env, kvm->env.v[i]);
	c.root = kvm->root;
	c.bind = kvm->bind;
	rw[0] = xstrfmt("%s/%s", ctx->kvm_tree, dir);
	ret = step_run_sandboxed(ctx, r, &c, (const char *const *)rw);
	free(rw[0]);
	child_clear(&c);
	return ret;
}

/*
 * The objects of each module of @mods, from kbuild's @dir/MOD.mod: their
 * paths below @dir without ".o" in @objs, each one's module in @of.  6.x
 * writes them with the dir's absolute path, 7.x below it ("./" in the dir
 * itself: kbuild runs there, $(obj) is ".").
 */
static int read_mod_files(const struct verify_ctx *ctx, const char *dir,
			  const struct strvec *mods, struct strvec *objs,
			  struct strvec *of, struct step_result *r)
{
	char *top = xstrfmt("%s/%s/", ctx->kvm_tree, dir);
	size_t i;
	int ret = 0;

	for (i = 0; i < mods->nr && !ret; i++) {
		char *path = xstrfmt("%s%s.mod", top, mods->v[i]);
		struct strbuf text = STRBUF_INIT;
		struct line l;

		if (strbuf_read_file(&text, path, 1 << 20) < 0) {
			strbuf_addf(&r->reason, "kbuild wrote no %s", path);
			ret = -1;
		}
		for_each_line(l, text.buf) {
			const char *o = l.s;
			size_t n = l.len;

			if (n > strlen(top) && !strncmp(o, top, strlen(top))) {
				n -= strlen(top);
				o += strlen(top);
			} else if (n > 2 && !strncmp(o, "./", 2)) {
				n -= 2;
				o += 2;
			}
			if (n > 2 && !strncmp(o + n - 2, ".o", 2)) {
				strvec_pushf(objs, "%.*s", (int)n - 2, o);
				strvec_push(of, mods->v[i]);
			}
		}
		strbuf_release(&text);
		free(path);
	}
	free(top);
	return ret;
}

/*
 * genksyms on @dir/@obj.i, in the sandbox (it is the headers' program):
 * its "#SYMVER name crc" lines as Module.symvers lines of module
 * @dir/@mod in @symvers, the CRC 0x00000000 without @modversions.
 */
static int genksyms_object(const struct verify_ctx *ctx, struct step_result *r,
			   const struct child *kvm, const char *dir,
			   const char *obj, const char *mod, int modversions,
			   struct strbuf *symvers)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *const rw[] = { NULL };
	char *in = xstrfmt("%s/%s/%s.i", ctx->kvm_tree, dir, obj);
	struct line l;
	int ret;

	strvec_pushf(&c.args, "%s/scripts/genksyms/genksyms",
		     ctx->config.kbuild);
	c.in = in;
	c.out = &out;
	c.root = kvm->root;
	c.bind = kvm->bind;
	ret = step_run_sandboxed(ctx, r, &c, rw);
	for_each_line(l, ret ? "" : out.buf) {
		char sym[256], crc[16];

		if (sscanf(l.s, "#SYMVER %255s 0x%8[0-9a-f]", sym, crc) == 2)
			strbuf_addf(symvers, "0x%s\t%s\t%s/%s\n",
				    modversions ? crc : "00000000", sym, dir,
				    mod);
	}
	unlink(in);
	free(in);
	strbuf_release(&out);
	child_clear(&c);
	return ret;
}

/* Does @path's text hold @what? */
static int file_has(const char *path, const char *what)
{
	struct strbuf text = STRBUF_INIT;
	int has = !strbuf_read_file(&text, path, 16 << 20) &&
		  strstr(text.buf, what);

	strbuf_release(&text);
	return has;
}

/*
 * @dir's Module.symvers lines (module paths as Debian's) into
 * <kvm_tree>/@dir/KABI_SYMVERS, from its modules' .c files that export
 * symbols: kbuild's "%.mod", then its "%.i" under -D__GENKSYMS__, and
 * genksyms.  An object whose .c has no "EXPORT_" (EXPORT_SYMBOL*,
 * EXPORT_TRACEPOINT_SYMBOL*...) exports nothing: kbuild would run no
 * genksyms on it.
 */
int kabi_genksyms(const struct verify_ctx *ctx, struct step_result *r,
		  const struct child *kvm, const char *dir, const char *config)
{
	struct strvec mods = STRVEC_INIT, goals = STRVEC_INIT,
		      objs = STRVEC_INIT, of = STRVEC_INIT;
	struct strbuf symvers = STRBUF_INIT;
	char *top = xstrfmt("%s/%s", ctx->kvm_tree, dir), *path;
	int modversions = config_value(config, "CONFIG_MODVERSIONS") == 'y';
	size_t i;
	int ret;

	dir_modules(top, "", config, &mods, 0);
	for (i = 0; i < mods.nr; i++)
		strvec_pushf(&goals, "%s.mod", mods.v[i]);
	/* no goal would be kbuild's default, the modules, compiled */
	ret = goals.nr && (kbuild_goals(ctx, r, kvm, dir, &goals) ||
			   read_mod_files(ctx, dir, &mods, &objs, &of, r));
	strvec_clear(&goals);
	for (i = 0; i < objs.nr && !ret; i++) {
		path = xstrfmt("%s/%s.c", top, objs.v[i]);
		if (file_has(path, "EXPORT_"))
			strvec_pushf(&goals, "%s.i", objs.v[i]);
		free(path);
	}
	if (!ret && goals.nr)
		ret = kbuild_goals(ctx, r, kvm, dir, &goals);
	for (i = 0; i < objs.nr && !ret; i++) {
		char *goal = xstrfmt("%s.i", objs.v[i]);

		if (strvec_has(&goals, goal))
			ret = genksyms_object(ctx, r, kvm, dir, objs.v[i],
					      of.v[i], modversions, &symvers);
		free(goal);
	}
	path = xstrfmt("%s/%s", top, KABI_SYMVERS);
	if (!ret)
		ret = write_file_atomic(path, symvers.buf, symvers.len);
	free(path);
	free(top);
	strbuf_release(&symvers);
	strvec_clear(&mods);
	strvec_clear(&goals);
	strvec_clear(&objs);
	strvec_clear(&of);
	return ret;
}

/* The "module DIR" lines of @list. */
void kabi_module_dirs(const char *list, struct strvec *dirs)
{
	struct line l;

	for_each_line(l, list)
		if (l.len > 7 && starts_with(l.s, "module "))
			strvec_pushf(dirs, "%.*s", (int)(strcspn(l.s, "\n") - 7),
				     l.s + 7);
}
