// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the prev_counter shape, just enough around it. */
#include <linux/perf_event.h>
#include <linux/sort.h>
#include "pmu.h"

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

static void reprogram_counter(struct kvm_pmc *pmc)
{
	struct kvm_pmu *pmu = pmc_to_pmu(pmc);
	u64 eventsel = pmc->eventsel;
	u64 new_config = eventsel;
	u8 fixed_ctr_ctrl;

	pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed, signal their overflow even if it no longer is.  Once: a
	 * failed pmc_reprogram_counter() below keeps the snapshot for a retry.
	 */
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;

	if (!pmc_event_is_allowed(pmc))
		goto reprogram_complete;

	if (pmc_reprogram_counter(pmc, new_config, fixed_ctr_ctrl))
		return;

reprogram_complete:
	clear_bit(pmc->idx, (unsigned long *)&pmu->reprogram_pmi);
	pmc->prev_counter = 0;
}

void kvm_pmu_handle_event(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reprogram_pending(vcpu);
}

/*
 * Service pending PMU requests before KVM_RUN returns: vcpu->requests is not
 * part of the state userspace saves, and userspace may change the filter or
 * the PMU MSRs before the next VM-entry.
 */
void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu)
{
	if (kvm_check_request(KVM_REQ_PMU, vcpu))
		kvm_pmu_handle_event(vcpu);
	if (kvm_check_request(KVM_REQ_PMI, vcpu))
		kvm_pmu_deliver_pmi(vcpu);
}

int kvm_pmu_get_msr(struct kvm_vcpu *vcpu, struct msr_data *msr_info)
{
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);

	switch (msr_info->index) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		msr_info->data = pmu->global_status;
		break;
	default:
		return 1;
	}
	return 0;
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	pmc->prev_counter = pmc->counter;
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
