/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture written for the tests: pmu.h of the sync shape (6.1). */
#ifndef __KVM_X86_PMU_H
#define __KVM_X86_PMU_H

static inline u64 pmc_read_counter(struct kvm_pmc *pmc)
{
	return pmc->counter & pmc_bitmask(pmc);
}

static inline void pmc_write_counter(struct kvm_pmc *pmc, u64 val)
{
	pmc->counter += val - pmc_read_counter(pmc);
	pmc->counter &= pmc_bitmask(pmc);
}

void reprogram_counter(struct kvm_pmc *pmc);
void kvm_pmu_handle_event(struct kvm_vcpu *vcpu);

#endif /* __KVM_X86_PMU_H */
