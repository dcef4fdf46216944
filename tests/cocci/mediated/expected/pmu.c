// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
#include <linux/sort.h>
#include "pmu.h"

/* Enable/disable PMU virtualization */
bool __read_mostly enable_pmu = true;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_pmu);
module_param(enable_pmu, bool, 0444);

/*
 * How many emulated instructions may accumulate on a counter of the
 * perf-based vPMU before KVM reprograms it; 0 reprograms on every one.
 */
static unsigned int __read_mostly emulated_counter_reprogram_tolerance;
module_param(emulated_counter_reprogram_tolerance, uint, 0644);

/* Enable/disabled mediated PMU virtualization. */
bool __read_mostly enable_mediated_pmu;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_mediated_pmu);

static bool pmc_pause_counter(struct kvm_pmc *pmc)
{
	u64 counter = pmc->counter;
	u64 prev_counter;

	if (pmc->perf_event && !pmc->is_paused)
		counter += perf_event_pause(pmc->perf_event, true);

	prev_counter = counter & pmc_bitmask(pmc);
	counter += pmc->emulated_counter;
	pmc->counter = counter & pmc_bitmask(pmc);

	pmc->emulated_counter = 0;
	pmc->is_paused = true;

	return pmc->counter < prev_counter;
}

static void pmc_stop_counter(struct kvm_pmc *pmc)
{
	if (pmc->perf_event) {
		/* pmc_read_counter() includes the emulated events. */
		pmc->counter = pmc_read_counter(pmc);
		pmc->emulated_counter = 0;
		pmc_release_perf_event(pmc);
	}
}

static void pmc_update_sample_period(struct kvm_pmc *pmc, u64 val)
{
	if (!pmc->perf_event || pmc->is_paused ||
	    !is_sampling_event(pmc->perf_event))
		return;

	/*
	 * perf keeps the old period if it rejects this one, e.g. below the
	 * host's limit_period: the reprogram re-creates the event, or ends
	 * with none, so that no stale period is left.
	 */
	if (perf_event_period(pmc->perf_event, get_sample_period(pmc, val)))
		kvm_pmu_request_counter_reprogram(pmc);
}

/* Whether the emulated events not yet folded into the counter wrapped it. */
static bool pmc_emulated_overflow_pending(struct kvm_pmc *pmc)
{
	u64 counter = pmc_read_counter(pmc);

	return counter < ((counter - pmc->emulated_counter) & pmc_bitmask(pmc));
}

void pmc_write_counter(struct kvm_pmc *pmc, u64 val)
{
	if (kvm_vcpu_has_mediated_pmu(pmc->vcpu)) {
		pmc->counter = val & pmc_bitmask(pmc);
		return;
	}

	/* The overflow happened before the write, which drops the events. */
	if (pmc->emulated_counter && pmc_emulated_overflow_pending(pmc))
		__kvm_perf_overflow(pmc, false);

	/* Drop the accumulated counts: a write, not a read-modify-write. */
	pmc->emulated_counter = 0;
	pmc->counter += val - pmc_read_counter(pmc);
	pmc->counter &= pmc_bitmask(pmc);
	pmc_update_sample_period(pmc, val);
}

static int reprogram_counter(struct kvm_pmc *pmc)
{
	bool emulate_overflow;

	emulate_overflow = pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed, signal their overflow even if it no longer is.
	 */
	if (emulate_overflow)
		__kvm_perf_overflow(pmc, false);

	if (!pmc_is_globally_enabled(pmc) || !pmc_is_locally_enabled(pmc) ||
	    !pmc_is_event_allowed(pmc))
		return 0;

	return pmc_reprogram_counter(pmc);
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
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);
	struct kvm_pmc *pmc;
	int i;

	/* Fold the batched emulated events too, see kvm_pmu_incr_counter(). */
	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		if (pmc->emulated_counter)
			kvm_pmu_request_counter_reprogram(pmc);
	}

	if (kvm_check_request(KVM_REQ_PMU, vcpu))
		kvm_pmu_handle_event(vcpu);
	if (kvm_check_request(KVM_REQ_PMI, vcpu))
		kvm_pmu_deliver_pmi(vcpu);
}

int kvm_pmu_check_rdpmc_early(struct kvm_vcpu *vcpu, unsigned int idx)
{
	return 0;
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

/*
 * Whether the reprogram that folds the emulated events may wait for more: at
 * most "tolerance" of them and half the counter's range, so that the fold
 * sees the wrap, and not once they wrapped the counter on their own.
 */
static bool pmc_defer_emulated_reprogram(struct kvm_pmc *pmc)
{
	u64 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 half = pmc_bitmask(pmc) >> 1;
	u64 to_wrap;

	/*
	 * handle_invalid_guest_state() emulates up to 130 instructions before
	 * the next VM-entry folds the batch: leave room for them.
	 */
	if (pmc->emulated_counter > min(tolerance, half > 130 ? half - 130 : 0))
		return false;

	/*
	 * A running event's period is the distance to the wrap from the value
	 * the counter had at its last reprogram or write; pmc->counter is
	 * offset by the event's count after a write.
	 */
	if (pmc->perf_event && !pmc->is_paused)
		to_wrap = pmc->perf_event->attr.sample_period;
	else
		to_wrap = get_sample_period(pmc, pmc->counter);

	return pmc->emulated_counter < to_wrap;
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	struct kvm_vcpu *vcpu = pmc->vcpu;

	/*
	 * For perf-based PMUs, accumulate software-emulated events separately.
	 */
	if (!kvm_vcpu_has_mediated_pmu(vcpu)) {
		pmc->emulated_counter++;
		if (!pmc_defer_emulated_reprogram(pmc))
			kvm_pmu_request_counter_reprogram(pmc);
		return;
	}

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	if (!pmc->counter) {
		pmc_to_pmu(pmc)->global_status |= BIT_ULL(pmc->idx);
		if (pmc_is_pmi_enabled(pmc))
			kvm_make_request(KVM_REQ_PMI, vcpu);
	}
}
