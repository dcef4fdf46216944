/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBIAN_INT_H
#define KVERIFY_DEBIAN_INT_H

/*
 * What the build of Debian's KVM modules (debian_modules.c) shares with
 * its module tree (debian_modtree.c) and the module dirs beyond KVM_DIR
 * (debian_kabi_dirs.c): for those files only, no step.
 */
#include "core/step.h"

/* The module dirs of the tree kbuild builds KVM's modules from. */
#define NR_MODULE_DIRS 2
extern const char *const module_dirs[NR_MODULE_DIRS];

/*
 * In the objtree, from a module build's start to its end: a build that
 * finds it drops what the one cut short wrote (drop_unfinished_build()).
 */
#define MODULES_BUILDING ".kverify-modules-building"

/* The module tree (debian_modtree.c). */

/**
 * kept_objects_dir() - Where kbuild's objects are kept between runs.
 * @ctx: The run.
 *
 * Return: <build>/kvm-objects, to be freed.
 */
char *kept_objects_dir(const struct verify_ctx *ctx);

/**
 * restore_objects() - Put the kept objects back into the module tree.
 * @ctx: The run: what its @ctx->kvm_tree lacks is copied, with its mtime.
 */
void restore_objects(const struct verify_ctx *ctx);

/**
 * keep_objects() - Keep what kbuild wrote in the module tree.
 * @ctx: The run: what in @ctx->kvm_tree's module dirs is neither the
 *	pristine source's nor a file the series names is copied to
 *	kept_objects_dir(), which it replaces.
 */
void keep_objects(const struct verify_ctx *ctx);

/**
 * sync_sources() - Another flavour's copy of a module dir, made current.
 * @ctx: The run: from @ctx->tree into @ctx->kvm_tree.
 * @rel: The dir, tree-relative ("virt/kvm"), and the dirs below it.
 * @added: The files the series adds, tree-relative.
 * @r: The step's result: why it failed.
 *
 * The sources of the pristine source and those of @added, never kbuild's
 * objects; a file whose bytes changed is written anew, the others keep
 * their mtime.
 *
 * Return: 0, or -1 when a dir cannot be read or a file copied (@r says
 * why).
 */
int sync_sources(const struct verify_ctx *ctx, const char *rel,
		 const struct strvec *added, struct step_result *r);

/**
 * sync_kvm_tree() - Another flavour's copy of the module dirs made current.
 * @ctx: The run; nothing to do for the default flavour.
 * @r: The step's result: why it failed.
 *
 * Return: 0, or -1 as sync_sources().
 */
int sync_kvm_tree(const struct verify_ctx *ctx, struct step_result *r);

/**
 * drop_unfinished_build() - Undo what a module build cut short wrote.
 * @ctx: The run.
 * @marker: The objtree's MODULES_BUILDING file.
 *
 * What was written in the module tree since @marker, neither the
 * source's nor a file the series names, is removed, and @marker too.
 *
 * Return: 1 when there was a @marker, else 0.
 */
int drop_unfinished_build(const struct verify_ctx *ctx, const char *marker);

/**
 * mark_building() - Mark a module build under way.
 * @marker: The objtree's MODULES_BUILDING file, written empty.
 * @r: The step's result: why it failed.
 *
 * Return: 0, or -1 when @marker cannot be written.
 */
int mark_building(const char *marker, struct step_result *r);

/* The module dirs beyond KVM_DIR (debian_kabi_dirs.c). */

/**
 * build_kabi_dirs() - The CRCs of the module dirs beyond KVM_DIR.
 * @ctx: The run.
 * @r: The step's result: why it failed.
 * @kvm: The make of the KVM modules.
 *
 * The dirs whose sources include <linux/kvm_host.h> are found in the
 * tree and written to KABI_DIRS; each one's CRCs are computed by
 * kabi_genksyms(), or with CONFIG_GENDWARFKSYMS its modules built, into
 * its KABI_SYMVERS; for another flavour, in its copy.
 *
 * Return: 0, or nonzero when a dir cannot be synced or its CRCs computed,
 * or KABI_DIRS written (@r says why).
 */
int build_kabi_dirs(const struct verify_ctx *ctx, struct step_result *r,
		    const struct child *kvm);

/**
 * kabi_stamp() - What the CRCs of the module dirs beyond KVM_DIR come from.
 * @ctx: The run.
 * @kvm: The make of the KVM modules.
 *
 * Return: A hash of the source, the files the series touches but KVM's
 * own .c files, Documentation/ and tools/, Debian's root, the toolchain
 * and the make command, in hex; to be freed.
 */
char *kabi_stamp(const struct verify_ctx *ctx, const struct child *kvm);

/**
 * kabi_stamp_path() - Where kabi_stamp() of the last computed CRCs is kept.
 * @ctx: The run.
 *
 * Return: KABI_DIRS.stamp in the objtree, to be freed.
 */
char *kabi_stamp_path(const struct verify_ctx *ctx);

/**
 * kabi_dirs_current() - Are the CRCs of the module dirs beyond KVM_DIR current?
 * @ctx: The run.
 * @stamp: What kabi_stamp() says now.
 * @dirs: Appended to: the dirs KABI_DIRS names.
 *
 * Return: 1 when they were computed from what @stamp says and each dir
 * of @dirs has its KABI_SYMVERS in the flavour's tree, else 0.
 */
int kabi_dirs_current(const struct verify_ctx *ctx, const char *stamp,
		      struct strvec *dirs);

/**
 * note_kabi_dirs_kept() - Say that the CRCs of module dirs were current.
 * @reason: Appended to: "; DIR, DIR up to date: ...", or nothing.
 * @dirs: The dirs whose CRCs were kept.
 */
void note_kabi_dirs_kept(struct strbuf *reason, const struct strvec *dirs);

#endif
