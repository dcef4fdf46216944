/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture written for the tests: pmu.h of the prev_counter shape (6.7, 6.6.y). */
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

static inline u64 get_sample_period(struct kvm_pmc *pmc, u64 counter_value)
{
	u64 sample_period = (-counter_value) & pmc_bitmask(pmc);

	if (!sample_period)
		sample_period = pmc_bitmask(pmc) + 1;
	return sample_period;
}

static inline void kvm_pmu_request_counter_reprogram(struct kvm_pmc *pmc)
{
	set_bit(pmc->idx, pmc_to_pmu(pmc)->reprogram_pmi);
	kvm_make_request(KVM_REQ_PMU, pmc->vcpu);
}

static inline void pmc_update_sample_period(struct kvm_pmc *pmc)
{
	if (!pmc->perf_event || pmc->is_paused ||
	    !is_sampling_event(pmc->perf_event))
		return;

	/*
	 * The value the guest wrote: pmc_write_counter() has just offset
	 * pmc->counter by the event's count.  perf keeps the old period if it
	 * rejects this one, e.g. below the host's limit_period: the reprogram
	 * re-creates the event, or ends with none, so that no stale period is
	 * left.
	 */
	if (perf_event_period(pmc->perf_event,
			      get_sample_period(pmc, pmc_read_counter(pmc))))
		kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool pmc_is_globally_enabled(struct kvm_pmc *pmc)
{
	struct kvm_pmu *pmu = pmc_to_pmu(pmc);

	if (!kvm_pmu_has_perf_global_ctrl(pmu))
		return true;

	return test_bit(pmc->idx, (unsigned long *)&pmu->global_ctrl);
}

void kvm_pmu_deliver_pmi(struct kvm_vcpu *vcpu);
void kvm_pmu_handle_event(struct kvm_vcpu *vcpu);
void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu);

#endif /* __KVM_X86_PMU_H */
