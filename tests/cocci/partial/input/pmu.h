/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture written for the tests: pmu.h of the emulated_counter shape, its prototypes. */
#ifndef __KVM_X86_PMU_H
#define __KVM_X86_PMU_H

void kvm_pmu_handle_event(struct kvm_vcpu *vcpu);
void kvm_pmu_deliver_pmi(struct kvm_vcpu *vcpu);

#endif /* __KVM_X86_PMU_H */
