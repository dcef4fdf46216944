/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture written for the tests: struct kvm_pmc of the emulated_counter shape. */
#ifndef _ASM_X86_KVM_HOST_H
#define _ASM_X86_KVM_HOST_H

struct kvm_pmc {
	enum pmc_type type;
	u8 idx;
	bool is_paused;
	bool intr;
	/* Base value of the counter, relative to the consumed perf count. */
	u64 counter;
	u64 emulated_counter;
	u64 eventsel;
	struct perf_event *perf_event;
	struct kvm_vcpu *vcpu;
};

#endif /* _ASM_X86_KVM_HOST_H */
