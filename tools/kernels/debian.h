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

/*
 * Debian's built kernel of the source's version, as the config step found
 * and unpacked it (config_out.debian): read here and through the kernel
 * ops (debian_describe()), by no step.
 */
struct debian_state {
	char *abi;		/* 6.12.117+deb12 */
	char *release;		/* its flavour's uname -r */
	char *root;		/* the packages unpacked: usr/, boot/ */
	char *package;		/* the image package's name */
	char *image;		/* its vmlinuz */
	int fetched;		/* downloaded by this run */
};

/* Its packages (debian_packages.c), for the config step. */

/**
 * debian_state_free() - Free what the config step found of Debian's kernel.
 * @s: The state, or NULL.
 */
void debian_state_free(struct debian_state *s);

/**
 * debian_describe() - Debian's kernel that a run boots, in words.
 * @ctx: The run.
 * @cfg: Its config step's output.
 * @d: Filled with the vmlinuz, its release, its package and the package's
 *	version, which stay @cfg's and @ctx's.
 *
 * Return: 0, or -1 when the config step found no vmlinuz of Debian's.
 */
int debian_describe(const struct verify_ctx *ctx,
		    const struct config_out *cfg, struct kernel_desc *d);

/**
 * debian_config_name() - The config of the modules' build, by name.
 * @ctx: The run, after its config step.
 *
 * Return: "Debian config-<release> (modules of arch/x86/kvm)", or our
 * own kernel's name when the config step found no vmlinuz; to be freed.
 */
char *debian_config_name(const struct verify_ctx *ctx);

/**
 * headers_dir() - Where Debian's headers of the kernel are unpacked.
 * @cfg: The config step's output: Debian's kernel found and unpacked.
 *
 * Return: <deb_root>/usr/src/linux-headers-<release>, to be freed.
 */
char *headers_dir(const struct config_out *cfg);

/**
 * debian_symvers() - The Module.symvers of Debian's headers.
 * @cfg: As for headers_dir().
 *
 * Return: Its path, to be freed: the kabi step's reference.
 */
char *debian_symvers(const struct config_out *cfg);

/*
 * Its modules (debian_modules.c, debian_kabi.c), for the build and kabi
 * steps.
 */

/**
 * kabi_module_dirs() - The module dirs a KABI_DIRS list names.
 * @list: The list's text: "module DIR" or "vmlinux FILE" a line.
 * @dirs: Appended to: the DIR of each "module DIR" line.
 */
void kabi_module_dirs(const char *list, struct strvec *dirs);

/**
 * kabi_genksyms() - The CRCs of a module dir, without compiling it.
 * @ctx: The run.
 * @r: The step's result: why it failed.
 * @kvm: The make of the KVM modules, whose command, chroot and
 *	environment kbuild runs with here (M= the dir, without ccache).
 * @dir: The module dir, tree-relative ("drivers/vfio").
 * @config: Debian's .config, its text led by a newline.
 *
 * kbuild's "%.mod" targets list the dir's modules' objects; an object
 * whose .c exports symbols ("EXPORT_") is preprocessed by kbuild's "%.i"
 * with -D__GENKSYMS__, and genksyms prints its CRCs, in the sandbox.
 * Without CONFIG_MODVERSIONS each CRC is 0x00000000, as modpost writes
 * it.  The Module.symvers lines go to @dir/KABI_SYMVERS in the flavour's
 * tree, module paths as Debian's.
 *
 * Return: 0, or nonzero when kbuild or genksyms fails (@r says why), or
 * the file cannot be written.
 */
int kabi_genksyms(const struct verify_ctx *ctx, struct step_result *r,
		  const struct child *kvm, const char *dir, const char *config);

/**
 * config_value() - A symbol's value in a .config.
 * @config: The .config's text, led by a newline.
 * @sym: The symbol: "CONFIG_VFIO".
 *
 * Return: 'y' or 'm' for "SYM=y" or "SYM=m" lines, else 0.
 */
int config_value(const char *config, const char *sym);

/**
 * kvm_module_path() - A rebuilt KVM module of the flavour's tree.
 * @ctx: The run; the modules are in its KVM_DIR of @ctx->kvm_tree.
 * @name: The module: "kvm", "kvm-amd" or "kvm-intel".
 *
 * Return: The path of its .ko, to be freed.
 */
char *kvm_module_path(const struct verify_ctx *ctx, const char *name);

/**
 * debian_prefetch() - Fetch the packages configure_debian() unpacks.
 * @ctx: The run; its source is a deb: one, its version known.
 * @r: The step's result: why it could not.
 *
 * The fetch step runs this beside the source's unpacking, ahead of the
 * config step, which tries again (and says why) when it could not.
 *
 * Return: 0 when it fetched them, 1 when the cache had them, -1 when it
 * could not.
 */
int debian_prefetch(const struct verify_ctx *ctx, struct step_result *r);

/**
 * configure_debian() - The config step of BOOT=distro: Debian's kernel.
 * @ctx: The run; its source must be a deb: one.
 * @out: The config step's output: Debian's ABI, release, image package,
 *	where its packages are unpacked, the objtree, the toolchain, the
 *	vmlinuz; under BOOT=auto, when Debian's compiler cannot be had, the
 *	build directory of our own kernel and why it boots instead.
 * @r: The step's result: what it did, or why it failed.
 *
 * Debian's image and headers of exactly the source's version are found
 * through the suite's private apt state and unpacked into the store once.
 * The objtree links Debian's headers and includes the patched tree's
 * Makefile, which makes it the srctree.  The modules must be built with
 * Debian's compiler: when it is not installed here, a toolchain of the
 * kernel's own release is made (toolchain_get()).  A series that changes
 * a file built into Debian's vmlinux, which is not rebuilt (anything but
 * KVM_DIR, virt/kvm's C files, headers, tools/ and Documentation/),
 * fails.
 *
 * Return: STEP_PASS; STEP_ERROR when Debian's compiler is not installed
 * and no toolchain can be had for it (BOOT=distro), or the toolchain
 * cannot be made; else STEP_FAIL.
 */
enum step_status configure_debian(const struct verify_ctx *ctx,
				  struct config_out *out,
				  struct step_result *r);

/**
 * build_debian_modules() - The build step of BOOT=distro.
 * @ctx: The run, after configure_debian().
 * @out: The build step's output: @out->kernel_built, and ccache's hits
 *	and misses (-1: no ccache).
 * @r: The step's result: what it did, or why it failed.
 *
 * KVM_DIR's modules are built against Debian's headers (make -C the
 * objtree M=KVM_DIR modules, in the sandbox), unless its stamp says the
 * tree, the headers and the command are unchanged; a compiler warning in
 * a file the series touches fails it.  The CRCs of the other module dirs
 * the kabi step compares are computed when not current.  The rebuilt
 * kvm.ko's vermagic must be Debian's release.
 *
 * Return: STEP_PASS, or STEP_FAIL.
 */
enum step_status build_debian_modules(const struct verify_ctx *ctx,
				      struct build_out *out,
				      struct step_result *r);

/* Its initramfs (debian_initramfs.c), for the boot step. */

/**
 * debian_initramfs() - The modules BOOT=distro's initramfs holds.
 * @ctx: The run, after build_debian_modules().
 * @r: The step's result: why it failed.
 * @dir: Where the modules are staged (@dir/modules, @dir/modules.load).
 * @list: Appended to: gen_init_cpio lines for /lib/modules/ and
 *	/tests/modules, the modules' load order.
 *
 * The rebuilt KVM modules and, before each, what its depends= names,
 * from the rebuilt ones or Debian's image (decompressed, or without debug
 * information).
 *
 * Return: 0, or nonzero when a module is missing from the image or cannot
 * be staged (@r says why), or the load order cannot be written.
 */
int debian_initramfs(const struct verify_ctx *ctx, struct step_result *r,
		     const char *dir, struct strbuf *list);

#endif
