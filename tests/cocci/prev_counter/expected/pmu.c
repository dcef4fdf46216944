// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the prev_counter shape, just enough around it. */
#include <linux/perf_event.h>
#include <linux/sort.h>
#include <linux/moduleparam.h>
#include "pmu.h"

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

/*
 * How many emulated instructions may accumulate on a counter of the
 * perf-based vPMU before KVM reprograms it; 0 reprograms on every one.
 */
static unsigned int __read_mostly emulated_counter_reprogram_tolerance;
module_param(emulated_counter_reprogram_tolerance, uint, 0644);

static void reprogram_counter(struct kvm_pmc *pmc)
{
	u64 eventsel = pmc->eventsel;

	pmc_pause_counter(pmc);

	/*
	 * The emulated increments were counted while the counter was enabled
	 * and allowed; with a batched reprogram, the counter may have been
	 * disabled or filtered since: signal their overflow regardless.  Then
	 * drop the snapshot, so that a failed pmc_reprogram_counter() below,
	 * which leaves the reprogram pending, leaves no stale snapshot for its
	 * retry to compare against.
	 */
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;

	if (!pmc_event_is_allowed(pmc))
		goto reprogram_complete;

	if (pmc_reprogram_counter(pmc, eventsel))
		return;

reprogram_complete:
	clear_bit(pmc->idx, (unsigned long *)&pmc_to_pmu(pmc)->reprogram_pmi);
	pmc->prev_counter = 0;
}

/*
 * Before a write of the counter: signal the overflow a pending reprogram
 * request holds, which the write would drop, and drop its snapshot, which
 * would be compared with the written value.
 */
void kvm_pmu_write_pending_overflow(struct kvm_pmc *pmc)
{
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;
}
EXPORT_SYMBOL_GPL(kvm_pmu_write_pending_overflow);

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
	unsigned int tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch = tolerance ?
		    BIT_ULL(ilog2(min_t(u64, (u64)tolerance + 1,
					(pmc_bitmask(pmc) >> 1) + 1))) : 1;
	u64 prev_counter = pmc->counter;

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	/*
	 * Batch reprograms: request one when the counter reaches a multiple of
	 * the largest power of two not above tolerance + 1 nor half the
	 * counter's range.  The counter moves by one per emulated instruction,
	 * so a reprogram is requested at least every tolerance + 1 of them, and
	 * always when it wraps to 0: an overflow that emulated instructions
	 * cause on their own is signalled at the next VM-entry, as today.
	 */
	if (pmc->counter & (batch - 1))
		return;

	/*
	 * reprogram_counter() signals an overflow if the counter went below
	 * prev_counter, then drops it.  While a request is pending keep the
	 * oldest snapshot, or a wrap earlier in the batch would be lost.
	 */
	if (batch == 1 || !pmc->prev_counter)
		pmc->prev_counter = prev_counter;
	kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
