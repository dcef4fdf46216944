/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBIAN_H
#define KVERIFY_DEBIAN_H

/* Debian's kernel: its packages, the patched modules against its headers. */
#include "core/step.h"

#define KVM_DIR "arch/x86/kvm"
/* The modules KVM_DIR builds, in load order. */
#define NR_KVM_MODULES 3
extern const char *const kvm_modules[NR_KVM_MODULES];
/*
 * Beside the objtree, written at build time: the other modules' dirs the
 * kabi step compares ("module DIR" or "vmlinux FILE" a line).
 */
#define KABI_DIRS ".kverify-kabi-dirs"
/*
 * In each such module dir of the flavour's tree: its modules' exports as
 * Module.symvers lines, "CRC<tab>symbol<tab>module path" (debian_kabi.c).
 */
#define KABI_SYMVERS ".kverify-kabi.symvers"

/* Its packages (debian_packages.c), for the config step. */
char *headers_dir(const struct config_out *cfg);
char *debian_symvers(const struct config_out *cfg);

/* Its modules (debian_modules.c), for the build and kabi steps. */
void kabi_module_dirs(const char *list, struct strvec *dirs);
/* The CRCs of a module dir without compiling it (debian_kabi.c). */
int kabi_genksyms(const struct verify_ctx *ctx, struct step_result *r,
		  const struct child *kvm, const char *dir, const char *config);
/* @sym's value in a .config's text led by "\n": 'y', 'm' or 0. */
int config_value(const char *config, const char *sym);
/* The rebuilt module @name ("kvm-amd") of the flavour's tree. */
char *kvm_module_path(const struct verify_ctx *ctx, const char *name);

/*
 * The packages configure_debian() unpacks, fetched ahead of it (the fetch
 * step runs this beside the source's unpacking): 0 when it fetched them,
 * 1 when the cache had them, -1 when it could not (the config step tries
 * again, and says why).
 */
int debian_prefetch(const struct verify_ctx *ctx, struct step_result *r);
enum step_status configure_debian(const struct verify_ctx *ctx,
				  struct config_out *out,
				  struct step_result *r);
enum step_status build_debian_modules(const struct verify_ctx *ctx,
				      struct build_out *out,
				      struct step_result *r);
/* Its initramfs (debian_initramfs.c), for the boot step. */
int debian_initramfs(const struct verify_ctx *ctx, struct step_result *r,
		     const char *dir, struct strbuf *list);

#endif
