// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
#include <linux/sort.h>
#include "pmu.h"

/* Enable/disable PMU virtualization */
bool __read_mostly enable_pmu = true;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_pmu);
module_param(enable_pmu, bool, 0444);

/*
 * Number of KVM-emulated instructions that may accumulate on an emulated
 * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
 * emulated count into the counter.  Writable at runtime, read with
 * READ_ONCE() in the emulation path.
 */
static uint __read_mostly emulated_counter_reprogram_tolerance;
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
	pmc->period_stale = false;

	return pmc->counter < prev_counter;
}

/*
 * Whether the emulated events not yet folded into the counter made it wrap:
 * the same test pmc_pause_counter() makes when it folds them.
 */
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

	/*
	 * Emulated events whose reprogram was batched may have wrapped the
	 * counter before this write: signal that overflow, which happened
	 * first, before the write drops them.
	 */
	if (pmc->emulated_counter && pmc_emulated_overflow_pending(pmc))
		__kvm_perf_overflow(pmc, false);

	/* Drop the accumulated counts: a write, not a read-modify-write. */
	pmc->emulated_counter = 0;
	pmc->counter += val - pmc_read_counter(pmc);
	pmc->counter &= pmc_bitmask(pmc);
	pmc_update_sample_period(pmc);
	pmc->period_stale = pmc->perf_event && !pmc->is_paused;
}

static int reprogram_counter(struct kvm_pmc *pmc)
{
	bool emulate_overflow;

	emulate_overflow = pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed; with a batched reprogram, the counter may have been
	 * disabled or filtered since.  Signal their overflow regardless.
	 */
	if (emulate_overflow)
		__kvm_perf_overflow(pmc, false);

	if (!pmc_is_globally_enabled(pmc) || !pmc_is_locally_enabled(pmc) ||
	    !pmc_is_event_allowed(pmc))
		return 0;

	return pmc_reprogram_counter(pmc);
}

static void kvm_pmu_fold_emulated_counters(struct kvm_pmu *pmu)
{
	struct kvm_pmc *pmc;
	u64 pending = 0;
	int i;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx)
		if (pmc->emulated_counter)
			pending |= BIT_ULL(pmc->idx);

	__kvm_pmu_reprogram_counters(pmu, pending, false);
}

int kvm_pmu_get_msr(struct kvm_vcpu *vcpu, struct msr_data *msr_info)
{
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);

	switch (msr_info->index) {
	case MSR_CORE_PERF_GLOBAL_STATUS:
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		/*
		 * Userspace saves the status: first fold the emulated events
		 * whose reprogram was batched, so that an overflow they caused
		 * is in the saved value.
		 */
		if (msr_info->host_initiated)
			kvm_pmu_fold_emulated_counters(pmu);
		msr_info->data = pmu->global_status;
		break;
	default:
		return 1;
	}
	return 0;
}

/*
 * Whether the reprogram that folds a counter's emulated events may wait for
 * more of them (emulated_counter_reprogram_tolerance): only while at most
 * "tolerance" are pending, at most half the counter's range so that the fold
 * always sees a wrap, and only while they cannot have wrapped the counter on
 * their own, so that the overflow they cause is signalled at once.  Not
 * after a counter write until the next fold: perf's stale period would let
 * counted events carry the counter past its wrap unseen.
 */
static bool pmc_defer_emulated_reprogram(struct kvm_pmc *pmc)
{
	u64 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 to_wrap = -pmc->counter & pmc_bitmask(pmc);

	if (pmc->period_stale)
		return false;

	if (pmc->emulated_counter > min(tolerance, pmc_bitmask(pmc) >> 1))
		return false;

	return !to_wrap || pmc->emulated_counter < to_wrap;
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
