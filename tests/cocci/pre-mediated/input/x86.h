// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: x86.c/x86.h of a kernel before the mediated vPMU. */
#ifndef ARCH_X86_KVM_X86_H
#define ARCH_X86_KVM_X86_H

extern struct kvm_caps kvm_caps;

extern bool enable_pmu;

static inline bool kvm_mpx_supported(void)
{
	return false;
}

#endif
