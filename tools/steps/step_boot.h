/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_STEP_BOOT_H
#define KVERIFY_STEP_BOOT_H

/* The boot step's output, for the reports (step_boot.c). */
#include "core/ktap.h"
#include "core/step.h"
#include "steps/steps.h"

enum accel {
	ACCEL_TCG,		/* QEMU's emulation */
	ACCEL_KVM,		/* the host's KVM, after a probe booted */
};

struct boot_out {
	enum accel kind;	/* the accelerator the guest booted with */
	char *accel;		/* it, and why: "tcg (no usable /dev/kvm)" */
	char *kernel_release;	/* uname -r of the booted kernel, or NULL */
	struct ktap_result tests;
};

/**
 * boot_of() - The guest's run of the tests.
 * @ctx: The run, set up by the engine.
 *
 * Return: The boot step's output, as far as it has run.
 */
static inline const struct boot_out *boot_of(const struct verify_ctx *ctx)
{
	return step_output(ctx, &boot_step);
}

#endif
