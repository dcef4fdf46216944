// SPDX-License-Identifier: GPL-2.0
/*
 * boot: an initramfs (the tree's gen_init_cpio, busybox-static, the tests
 * and tools/guest/init) booted with the bzImage under QEMU, KVM-accelerated
 * when a probe shows the host can boot the kernel with it, TCG otherwise.
 * The runner prints KTAP on the console; panics, oopses, BUG: lines and
 * hangs (QEMU killed at the timeout) fail the step with the console excerpt.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/series.h"
#include "kernels/debian.h"
#include "kernels/kernel.h"
#include "lib/fsutil.h"
#include "lib/lock.h"
#include "lib/sandbox.h"
#include "lib/options.h"
#include "steps/memo.h"
#include "steps/step_boot.h"
#include "steps/step_selftests.h"
#include "steps/steps.h"

#define BUSYBOX "/bin/busybox"	/* Debian's busybox-static; $KVERIFY_BUSYBOX */
#define TOLERANCES "0 1000 100000 10000000\n"
#define PROBE_TIMEOUT 30
#define GUEST_APPEND \
	"console=ttyS0 panic=-1 kvm.force_emulation_prefix=1 rdinit=/init"
/* tools/guest/init: a PMU test that skips is "not ok", with this reason */
#define REQUIRE_PMU_ARG "kverify.require=pmu"
#define REQUIRE_PMU_SKIPPED REQUIRE_PMU_ARG ", but it skipped"

static const char *const bad_console[] = {
	"Kernel panic", "BUG:", "Oops:", "general protection fault",
	"WARNING: CPU:", "Unable to handle kernel",
};

/*
 * /tests/knob: "absent" when the series carries fixes only (every patch
 * has Fixes:, backports/6.1): the guest then checks that the parameter is
 * not there and runs each PMU test once, with none to set.
 */
static int write_knob(const struct verify_ctx *ctx, const char *dir)
{
	const char *knob = series_fixes_only(series_of(ctx)) ? "absent\n" :
			   "present\n";
	char *path = xstrfmt("%s/knob", dir);
	int ret = write_file(path, knob, strlen(knob));

	free(path);
	return ret;
}

static int write_plan(const struct verify_ctx *ctx, const char *dir)
{
	struct strbuf plan = STRBUF_INIT;
	char *path;
	size_t i, j;
	int ret;

	for (i = 0; i < selftests_of(ctx)->bins.nr; i++) {
		const char *name = patch_name(selftests_of(ctx)->bins.v[i]);
		const char *kind = "pmu";

		for (j = 0; j < selftests_of(ctx)->new_tests.nr; j++)
			if (!strcmp(name, selftests_of(ctx)->new_tests.v[j]))
				kind = "pmu-sweep";
		if (!strcmp(name, "cpuid_test"))
			kind = "control";
		strbuf_addf(&plan, "%s %s\n", kind, name);
	}
	path = xstrfmt("%s/plan", dir);
	ret = write_file(path, plan.buf, plan.len);
	free(path);
	path = xstrfmt("%s/tolerances", dir);
	ret |= write_file(path, TOLERANCES, strlen(TOLERANCES));
	free(path);
	strbuf_release(&plan);
	return ret | write_knob(ctx, dir);
}

static const char *busybox_path(const struct verify_ctx *ctx)
{
	return ctx->opt->busybox ? ctx->opt->busybox : BUSYBOX;
}

/* 1: an x86_64 ELF executable without an interpreter; 0: not; -1: no file. */
static int elf_is_static(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, ret = 0;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    eh.e_phentsize != sizeof(ph))
		goto out;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph) || ph.p_type == PT_INTERP)
			goto out;
	}
	ret = 1;
out:
	close(fd);
	return ret;
}

/* The guest's shell must run with no libraries: a static x86_64 busybox. */
static int check_busybox(const struct verify_ctx *ctx, struct step_result *r)
{
	const char *b = busybox_path(ctx);

	if (strpbrk(b, " \t\n\r")) {
		strbuf_addstr(&r->reason, "KVERIFY_BUSYBOX holds blanks (gen_init_cpio lists are blank-separated): use a path without them");
		return -1;
	}
	switch (elf_is_static(b)) {
	case -1:
		missing_tool(&r->reason, b, "busybox-static");
		return blame_machine(r);
	case 0:
		strbuf_addf(&r->reason, "%s is not a static x86_64 executable (Debian's busybox package is dynamic): install it with 'apt-get install busybox-static'",
			    b);
		return blame_machine(r);
	}
	return 0;
}

/* The gen_init_cpio list, into @sb; @init is the guest's /init. */
static void cpio_list(const struct verify_ctx *ctx, const char *dir,
		      const char *init, struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, "dir /dev 755 0 0\nnod /dev/console 600 0 0 c 5 1\n"
		      "dir /proc 755 0 0\ndir /sys 755 0 0\ndir /tmp 1777 0 0\n"
		      "dir /bin 755 0 0\ndir /tests 755 0 0\n");
	strbuf_addf(sb, "file /bin/busybox %s 755 0 0\n", busybox_path(ctx));
	strbuf_addstr(sb, "slink /bin/sh busybox 777 0 0\n");
	strbuf_addf(sb, "file /init %s 755 0 0\n", init);
	strbuf_addf(sb, "file /tests/plan %s/plan 644 0 0\n", dir);
	strbuf_addf(sb, "file /tests/tolerances %s/tolerances 644 0 0\n", dir);
	strbuf_addf(sb, "file /tests/knob %s/knob 644 0 0\n", dir);
	for (i = 0; i < selftests_of(ctx)->bins.nr; i++)
		strbuf_addf(sb, "file /tests/%s %s 755 0 0\n",
			    patch_name(selftests_of(ctx)->bins.v[i]),
			    selftests_of(ctx)->bins.v[i]);
}

/* The gen_init_cpio list is in @list. */
static int make_initramfs(const struct verify_ctx *ctx, struct step_result *r,
			  const char *dir, const char *out,
			  struct strbuf *list)
{
	char *init = xstrfmt("%s/tools/guest/init", ctx->repo);
	char *list_path = xstrfmt("%s/initramfs.list", dir);
	struct child c = CHILD_INIT;
	int ret = -1;

	cpio_list(ctx, dir, init, list);
	if (check_busybox(ctx, r))
		goto out;
	/* BOOT=distro: the patched modules and what they depend on. */
	if (kernel_of(ctx)->initramfs &&
	    kernel_of(ctx)->initramfs(ctx, r, dir, list))
		goto out;
	if (write_plan(ctx, dir) ||
	    write_file(list_path, list->buf, list->len))
		goto out;
	strvec_pushf(&c.args, "%s/usr/gen_init_cpio", build_dir(ctx));
	strvec_push(&c.args, list_path);
	c.out_file = out;
	ret = step_run_sandboxed(ctx, r, &c, NULL);
	child_clear(&c);
out:
	free(init);
	free(list_path);
	return ret;
}

/* The guest's command line: with --require pmu, the runner's too. */
static const char *guest_append(const struct verify_ctx *ctx)
{
	return ctx->opt->require_pmu ? GUEST_APPEND " " REQUIRE_PMU_ARG :
	       GUEST_APPEND;
}

static void qemu_args(const struct verify_ctx *ctx, struct child *c,
		      enum accel accel, const char *initrd,
		      const char *append)
{
	struct kernel_desc d;
	int prebuilt = !kernel_describe(ctx, &d);

	strvec_pushl(&c->args, "qemu-system-x86_64", "-M", "q35", "-m", "2G",
		     "-smp", "2", "-nographic", "-no-reboot", "-monitor",
		     "none", "-nic", "none", NULL);
	if (accel == ACCEL_KVM)
		strvec_pushl(&c->args, "-accel", "kvm", "-cpu", "host", NULL);
	else if (prebuilt)
		/*
		 * Debian's kernel patches its own text live (static keys,
		 * text_poke_bp()'s int3 dance, e.g. when kvm.ko loads).  With
		 * a host thread per vCPU, TCG let the other vCPU run a stale
		 * int3 after the patch was done: "Oops: int3" in __schedule,
		 * 2 boots of about 15 here.  One thread for both vCPUs.
		 */
		strvec_pushl(&c->args, "-accel", "tcg,thread=single", "-cpu",
			     "max", NULL);
	else
		strvec_pushl(&c->args, "-accel", "tcg", "-cpu", "max", NULL);
	strvec_pushl(&c->args, "-kernel", NULL);
	if (prebuilt)	/* BOOT=distro: Debian's vmlinuz */
		strvec_push(&c->args, d.image);
	else
		strvec_pushf(&c->args, "%s/arch/x86/boot/bzImage", build_dir(ctx));
	strvec_pushl(&c->args, "-initrd", initrd, "-append", append, NULL);
}

/*
 * QEMU runs the guest's code (the series' kvm.ko; with BOOT=own the whole
 * kernel), so it runs as the tree's code does: in the sandbox, as nobody,
 * with QEMU's own seccomp filter on, writing only @io (NULL: nothing; its
 * console is its stdout, which kverify writes), /dev/kvm its one device
 * (with its group) when @kvm.
 */
static int sandbox_qemu(const struct verify_ctx *ctx, struct child *c,
			const char *io, int kvm, struct strbuf *why)
{
	struct sandbox sb = SANDBOX_INIT;
	int ret;

	step_sandbox_reads(ctx, &sb);
	if (io)
		strvec_push(&sb.rw, io);
	sb.dev = kvm ? "/dev/kvm" : NULL;
	strvec_pushl(&c->args, "-sandbox",
		     "on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny",
		     NULL);
	ret = sandbox_child(c, &sb, why);
	sandbox_clear(&sb);
	return ret;
}

/*
 * What QEMU prints when KVM cannot run the guest: it then stops the VM and
 * waits (for a monitor that is not there) instead of exiting.
 */
static const char *const kvm_failed[] = {
	"KVM internal error", "KVM: entry failed", NULL,
};

/* The probe's console and QEMU's messages, kept in the step's log. */
/*
 * Can the host boot this kernel with KVM?  /dev/kvm alone does not say:
 * nested or broken KVM hangs or aborts a guest.  Boot a probe once per
 * host boot and remember the answer.
 */
static char *probe_accel(const struct verify_ctx *ctx, const char *initrd,
			 enum accel *kind)
{
	char *boot_id = read_first_line("/proc/sys/kernel/random/boot_id");
	char *memo = cache_path(ctx, "accel-probe");
	char *had = NULL, *answer;
	const char *rest;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int lockfd = -1;

	*kind = ACCEL_TCG;
	if (access("/dev/kvm", R_OK | W_OK)) {
		answer = xstrdup("tcg (no usable /dev/kvm)");
		goto out;
	}
	/* Targets booting side by side (verify-all -jN) probe once. */
	lock_in_cache(ctx->cache, 1, &lockfd, &err, "accel-probe");
	had = read_first_line(memo);
	/* "<boot_id> kvm (probe booted)": the first word is the accelerator */
	if (had && boot_id && skip_prefix(had, boot_id, &rest) &&
	    skip_prefix(rest, " ", &rest) &&
	    (starts_with(rest, "kvm ") || starts_with(rest, "tcg "))) {
		*kind = starts_with(rest, "kvm ") ? ACCEL_KVM : ACCEL_TCG;
		answer = xstrdup(rest);
		goto out;
	}
	qemu_args(ctx, &c, ACCEL_KVM, initrd,
		  "console=ttyS0 panic=-1 rdinit=/init kverify.probe=1");
	if (sandbox_qemu(ctx, &c, NULL, 1, &err)) {
		answer = xstrfmt("tcg (no sandbox for a KVM probe: %s)", err.buf);
		child_clear(&c);
		goto out;
	}
	c.out = &out;
	c.err_to_out = 1;
	c.stop_at = kvm_failed;
	c.timeout = PROBE_TIMEOUT;
	c.log = ctx->log;
	run_child(&c);
	append_log(ctx->log, &out);
	if (strstr(out.buf, "KVERIFY-PROBE-OK")) {
		answer = xstrdup("kvm (probe booted)");
		*kind = ACCEL_KVM;
	} else if (c.stopped_at) {
		answer = xstrfmt("tcg (a KVM-accelerated probe failed: QEMU said \"%s\")",
				 c.stopped_at);
	} else {
		answer = xstrdup("tcg (a KVM-accelerated probe did not boot)");
	}
	if (boot_id) {
		char *line = xstrfmt("%s %s\n", boot_id, answer);

		write_file_atomic(memo, line, strlen(line));
		free(line);
	}
	child_clear(&c);
out:
	unlock_file(lockfd);
	strbuf_release(&out);
	strbuf_release(&err);
	free(boot_id);
	free(memo);
	free(had);
	return answer;
}

static const char *console_trouble(const char *console)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_console); i++)
		if (strstr(console, bad_console[i]))
			return bad_console[i];
	return NULL;
}

static void console_excerpt(struct step_result *r, const char *console,
			    const char *from)
{
	const char *start = from ? from : console + strlen(console);
	int lines = 0;

	while (start > console && lines < (from ? 5 : 40))
		if (*--start == '\n')
			lines++;
	strbuf_addf(&r->detail, "--- console%s ---\n%.*s\n",
		    from ? " at the first sign of trouble" : " (last lines)",
		    6000, start);
}

/* A test of the vPMU, which SKIPs where the guest has no PMU to test. */
static int is_pmu_test(const struct test_case *tc)
{
	return starts_with(tc->name, "pmu_");
}

/*
 * --require pmu: each PMU test that skipped is a failure with its reason,
 * one story for every reader of the tests (report.json, junit.xml, the
 * table, KCIDB) and for a LAVA job's monitor of the same console.  The
 * guest runner says so itself, as in the bundle's KVM jobs: it is booted
 * with kverify.require=pmu and prints "not ok N NAME # kverify.require=pmu,
 * but it skipped: WHY" (tools/guest/init, run_test).  A SKIP a runner left
 * anyway is made the same failure here.  Returns how many, named in
 * @names.
 */
static size_t require_pmu_failures(struct ktap_result *k,
				   struct strbuf *names)
{
	size_t i, nr = 0;

	for (i = 0; i < k->nr; i++) {
		struct test_case *tc = &k->v[i];

		if (!is_pmu_test(tc))
			continue;
		if (tc->status == TEST_SKIP) {
			char *why = xstrfmt("%s: %s", REQUIRE_PMU_SKIPPED,
					    tc->reason && *tc->reason ?
					    tc->reason : "no reason given");

			free(tc->reason);
			tc->reason = why;
			tc->status = TEST_FAIL;
		}
		if (tc->status != TEST_FAIL || !tc->reason ||
		    !starts_with(tc->reason, REQUIRE_PMU_SKIPPED))
			continue;
		strbuf_addf(names, "%s%s", nr ? ", " : "", tc->name);
		nr++;
	}
	return nr;
}

/*
 * @runner is what the guest runner wrote to its own serial port (the tests
 * run as nobody and cannot write it), @console the guest's console.
 */
static enum step_status verdict(struct boot_out *out,
				struct step_result *r, const char *runner,
				const char *console, int require_pmu)
{
	const struct ktap_result *k = &out->tests;
	struct strbuf unmet = STRBUF_INIT;
	size_t nr_unmet = require_pmu ?
			  require_pmu_failures(&out->tests, &unmet) : 0;
	size_t i, pass = ktap_count(k, TEST_PASS);
	size_t fail = ktap_count(k, TEST_FAIL), skip = ktap_count(k, TEST_SKIP);
	const char *bad = console_trouble(console);
	enum step_status st = STEP_PASS;

	for (i = 0; i < k->nr; i++) {
		const struct test_case *tc = &k->v[i];
		int must_pass = starts_with(tc->name, "param:") ||
				!strcmp(tc->name, "cpuid_test") ||
				(require_pmu && is_pmu_test(tc));

		if (tc->status == TEST_FAIL ||
		    (must_pass && tc->status != TEST_PASS)) {
			strbuf_addf(&r->detail, "%s: %s%s%s\n%s", tc->name,
				    tc->status == TEST_SKIP ? "SKIP" : "FAIL",
				    tc->reason ? ": " : "",
				    tc->reason ? tc->reason : "",
				    tc->output ? tc->output : "");
			st = STEP_FAIL;
		}
	}
	if (nr_unmet)
		strbuf_addf(&r->reason, "--require pmu: %zu PMU tests skipped (%s); ",
			    nr_unmet, unmet.buf);
	strbuf_release(&unmet);
	if (bad) {
		console_excerpt(r, console, strstr(console, bad));
		strbuf_addf(&r->reason, "guest console shows \"%s\"; ", bad);
		st = STEP_FAIL;
	} else if (!ktap_runner_done(runner)) {
		console_excerpt(r, console, NULL);
		strbuf_addstr(&r->reason, "the guest runner did not finish; ");
		st = STEP_FAIL;
	} else if (k->planned >= 0 && (size_t)k->planned != k->nr) {
		strbuf_addf(&r->reason, "KTAP planned %d tests, ran %zu; ",
			    k->planned, k->nr);
		st = STEP_FAIL;
	} else if (require_pmu && !k->nr) {
		strbuf_addstr(&r->reason, "--require pmu: no test ran; ");
		st = STEP_FAIL;
	}
	strbuf_addf(&r->reason, "%zu passed, %zu failed, %zu skipped; %s",
		    pass, fail, skip, out->accel);
	return st;
}

/* @path, read after a newline, has @text.  0 when unreadable. */
static int file_has(const char *path, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	int found;

	strbuf_addch(&sb, '\n');
	found = strbuf_read_file(&sb, path, 64 << 20) >= 0 &&
		strstr(sb.buf, text);
	strbuf_release(&sb);
	return found;
}

/*
 * kvm_x86_vendor_init() refuses PREEMPT_RT without a constant TSC (6.12's
 * arch/x86/kvm/x86.c:9293, "RT requires X86_FEATURE_CONSTANT_TSC"), and a
 * guest under TCG never has one: QEMU's TCG offers no invtsc (CPUID
 * 0x80000007 EDX bit 8), from which an AMD-like CPU gets it.  So the rt
 * flavour boots and loads the patched kvm.ko, and no test can open
 * /dev/kvm.
 *
 * What the host knows decides it, not what the guest printed: the guest
 * ran under TCG, the kernel booted is Debian's with CONFIG_PREEMPT_RT=y
 * (its headers package's .config), and the pristine tree's x86.c has the
 * refusal.
 * Then the guest's run must be that and nothing else (no test failed,
 * every parameter check passed, the control cpuid_test skipped, as a test
 * without /dev/kvm does, the runner finished, a clean console, the refusal
 * on it; the tests' statuses, not what they said): a SKIP, saying why.  A guest that prints the refusal anywhere else
 * (amd64, our own kernel, KVM) gets its FAIL.
 */
static int rt_without_kvm(const struct verify_ctx *ctx,
			  const struct boot_out *out, const char *runner,
			  const char *console)
{
	const struct ktap_result *k = &out->tests;
	const char *refusal = "RT requires X86_FEATURE_CONSTANT_TSC";
	struct kernel_desc d;
	char *hdr, *config, *x86;
	int rt, refuses;
	size_t i;

	if (out->kind != ACCEL_TCG || kernel_describe(ctx, &d))
		return 0;
	hdr = headers_dir(&ctx->config);
	config = xstrfmt("%s/.config", hdr);
	x86 = xstrfmt("%s/arch/x86/kvm/x86.c", ctx->fetch.source.src);
	rt = file_has(config, "\nCONFIG_PREEMPT_RT=y\n");
	refuses = file_has(x86, refusal);
	free(hdr);
	free(config);
	free(x86);
	if (!rt || !refuses || console_trouble(console) ||
	    !ktap_runner_done(runner) || !strstr(console, refusal))
		return 0;
	for (i = 0; i < k->nr; i++) {
		const struct test_case *tc = &k->v[i];

		if (tc->status == TEST_FAIL ||
		    (starts_with(tc->name, "param:") &&
		     tc->status != TEST_PASS) ||
		    (!strcmp(tc->name, "cpuid_test") &&
		     tc->status != TEST_SKIP))
			return 0;
	}
	return 1;
}

/*
 * The runner's port is a file QEMU writes, in a directory of the build's
 * that the sandbox may write; kverify copies it into the results after.
 */
static int run_guest(const struct verify_ctx *ctx, struct step_result *r,
		     enum accel accel, const char *initrd,
		     const char *console_path, const char *runner_path)
{
	char *io = xstrfmt("%s/guest-io", build_dir(ctx));
	char *port = xstrfmt("%s/runner.log", io);
	struct child c = CHILD_INIT;
	struct strbuf chardev = STRBUF_INIT;
	const char *p;
	int ret = 0;

	qemu_args(ctx, &c, accel, initrd, guest_append(ctx));
	/* ttyS0 the console, ttyS1 the runner's port; "," is ",," there. */
	strbuf_addstr(&chardev, "file,id=runner,path=");
	for (p = port; *p; p++) {
		if (*p == ',')
			strbuf_addch(&chardev, ',');
		strbuf_addch(&chardev, *p);
	}
	strvec_pushl(&c.args, "-chardev", chardev.buf, "-serial", "stdio",
		     "-serial", "chardev:runner", NULL);
	strbuf_release(&chardev);
	unlink(runner_path);
	rm_rf(io);
	if (mkdir_p(io) ||
	    sandbox_qemu(ctx, &c, io, accel == ACCEL_KVM, &r->reason)) {
		ret = blame_machine(r);
		goto out;
	}
	c.out_file = console_path;
	c.log = ctx->log;
	c.timeout = ctx->timeout;
	if (ctx->opt->test && ctx->opt->test->boot_timeout)	/* tests/README */
		c.timeout = ctx->opt->test->boot_timeout;
	run_child(&c);
	if (c.spawn_errno || c.interrupted) {
		child_describe_failure(&c, &r->reason);
		ret = c.spawn_errno ? blame_machine(r) : -1;
		goto out;
	}
	if (c.timed_out)
		strbuf_addf(&r->reason, "QEMU killed after %us; ", c.timeout);
	/* through no link the guest's side could leave (lib/guard.c) */
	if (copy_file(port, runner_path) && errno != ENOENT)
		strbuf_addf(&r->reason, "the runner's port %s: %s; ", port,
			    strerror(errno));
out:
	child_clear(&c);
	free(port);
	free(io);
	return ret;
}

/* The booted kernel's release: the runner's line, else the banner's. */
static char *booted_release(const char *console)
{
	static const char *const marks[] = {
		"kverify-guest: booted ", "Linux version ",
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		const char *p = strstr(console, marks[i]);

		if (!p)
			continue;
		p += strlen(marks[i]);
		n = strcspn(p, " \t\r\n");
		if (n && n < 128)
			return xstrfmt("%.*s", (int)n, p);
	}
	return NULL;
}

/*
 * The boot's PASS follows from: the initramfs's list and the bytes of every
 * file it takes (busybox, the runner, the plan, the tests, Debian's modules),
 * the kernel image, QEMU's executable (its version with it), QEMU's whole
 * command line (the accelerator, the kernel's), the probe's answer and
 * --require.  The initramfs itself is not hashed: gen_init_cpio stamps its
 * directories with the time of the run.
 */
static void boot_memo(const struct verify_ctx *ctx, enum accel accel,
		      const char *how, const char *initrd, const char *list,
		      struct memo *m)
{
	struct kernel_desc d;
	struct child c = CHILD_INIT;
	struct line l;
	size_t i;

	if (default_flavour(ctx)) {
		memo_init_bare(m, ctx, "boot");
	} else {
		char *step = xstrfmt("boot@%s", ctx->flavour->name);

		memo_init_bare(m, ctx, step);
		free(step);
	}
	memo_add_string(m, list);
	for_each_line(l, list) {
		char *t = xstrfmt("%.*s", (int)l.len, l.s), *save;
		char *kind = strtok_r(t, " ", &save);
		char *dest = kind ? strtok_r(NULL, " ", &save) : NULL;
		char *from = dest ? strtok_r(NULL, " ", &save) : NULL;

		if (from && !strcmp(kind, "file"))
			memo_add_file(m, from);
		free(t);
	}
	if (!kernel_describe(ctx, &d)) {
		memo_add_file(m, d.image);
	} else {
		char *bz = xstrfmt("%s/arch/x86/boot/bzImage", build_dir(ctx));

		memo_add_file(m, bz);
		free(bz);
	}
	memo_add_tool(m, "qemu-system-x86_64");
	qemu_args(ctx, &c, accel, initrd, guest_append(ctx));
	for (i = 0; i < c.args.nr; i++)
		memo_add_string(m, c.args.v[i]);
	child_clear(&c);
	memo_add_string(m, how);
	memo_add_string(m, ctx->opt->require_pmu ? "require pmu" : "");
}

static enum step_status boot_and_test(const struct verify_ctx *ctx,
				      struct boot_out *out, struct step_result *r)
{
	struct kernel_desc d;
	char *dir = xstrfmt("%s/boot", ctx->results);
	char *initrd = xstrfmt("%s/initramfs.cpio", dir);
	char *console_path = xstrfmt("%s/console.log", ctx->results);
	char *runner_path = xstrfmt("%s/runner.log", ctx->results);
	struct strbuf console = STRBUF_INIT, runner = STRBUF_INIT;
	struct strbuf list = STRBUF_INIT;
	enum step_status st = STEP_FAIL;
	struct memo memo = { 0 };

	if (!ctx->built.kernel_built || !selftests_of(ctx)->bins.nr) {
		strbuf_addstr(&r->reason, "no kernel image or selftests to boot");
		st = STEP_SKIP;
		if (ctx->opt->require_pmu) {
			strbuf_addstr(&r->reason, ", and --require pmu");
			st = STEP_FAIL;
		}
		goto out;
	}
	mkdir_p(dir);
	if (make_initramfs(ctx, r, dir, initrd, &list))
		goto out;
	out->accel = probe_accel(ctx, initrd, &out->kind);
	/* The kept PASS: the runner's port gives the tests as they were. */
	boot_memo(ctx, out->kind, out->accel, initrd, list.buf, &memo);
	if (memo_reuse_data(&memo, r, &runner)) {
		if (!write_file(runner_path, runner.buf, runner.len)) {
			ktap_parse(runner.buf, runner.len, &out->tests);
			out->kernel_release = booted_release(runner.buf);
			st = STEP_PASS;
			goto out;
		}
		strbuf_reset(&r->reason);
		strbuf_reset(&r->detail);
		strbuf_reset(&runner);
	}
	if (run_guest(ctx, r, out->kind, initrd, console_path, runner_path))
		goto out;
	strbuf_read_file(&console, console_path, 64 << 20);
	strbuf_read_file(&runner, runner_path, 64 << 20);
	ktap_parse(runner.buf, runner.len, &out->tests);
	free(out->kernel_release);
	out->kernel_release = booted_release(console.buf);
	st = verdict(out, r, runner.buf, console.buf, ctx->opt->require_pmu);
	if (st == STEP_FAIL && !ctx->opt->require_pmu &&
	    rt_without_kvm(ctx, out, runner.buf, console.buf)) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "KVM does not start under PREEMPT_RT without a constant TSC, which TCG cannot give the guest (\"RT requires X86_FEATURE_CONSTANT_TSC\", arch/x86/kvm/x86.c kvm_x86_vendor_init()): the image booted and loaded the patched kvm.ko (%zu parameter checks passed), no test could open /dev/kvm; the tests need a host with KVM; ",
			    ktap_count(&out->tests, TEST_PASS));
		strbuf_addstr(&why, r->reason.buf);
		strbuf_reset(&r->reason);
		strbuf_addstr(&r->reason, why.buf);
		strbuf_reset(&r->detail);
		strbuf_release(&why);
		st = STEP_SKIP;
	}
	if (!kernel_describe(ctx, &d))
		strbuf_addf(&r->reason, "; booted Debian's %s (%s %s)",
			    d.release, d.package, d.version);
	memo_keep_data(&memo, st, r, &runner);
out:
	if (memo.path)
		memo_clear(&memo);
	strbuf_release(&list);
	strbuf_release(&console);
	strbuf_release(&runner);
	free(dir);
	free(initrd);
	free(console_path);
	free(runner_path);
	return st;
}

static void boot_clear(void *out)
{
	struct boot_out *b = out;

	free(b->accel);
	free(b->kernel_release);
	ktap_clear(&b->tests);
}

static enum step_status boot_step_run(const struct verify_ctx *ctx, void *out,
				      struct step_result *r)
{
	return boot_and_test(ctx, out, r);
}

const struct step boot_step = {
	.name = "boot",
	.run = boot_step_run,
	.timeout = 1800,
	.needs = NEEDS(STEP_IDX_config) | NEEDS(STEP_IDX_build) |
		 NEEDS(STEP_IDX_selftests),
	STEP_OWN_OUTPUT(struct boot_out),
	.clear_out = boot_clear,
};
