// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the emulated_counter shape, just enough around it. */
#include <linux/perf_event.h>
#include <linux/sort.h>
#include <linux/moduleparam.h>
#include "pmu.h"

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

struct kvm_pmu_emulated_event_selectors __read_mostly kvm_pmu_eventsel;
EXPORT_SYMBOL_GPL(kvm_pmu_eventsel);

/*
 * Number of KVM-emulated instructions that may accumulate on an emulated
 * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
 * emulated count into the counter.  Writable at runtime, read with
 * READ_ONCE() in the emulation path.
 */
static uint __read_mostly emulated_counter_reprogram_tolerance;
module_param(emulated_counter_reprogram_tolerance, uint, 0644);

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

	if (!pmc_event_is_allowed(pmc))
		return 0;

	return pmc_reprogram_counter(pmc);
}

static void kvm_pmu_fold_emulated_counters(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);
	struct kvm_pmc *pmc;
	bool pending = false;
	int i;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		if (pmc->emulated_counter) {
			set_bit(pmc->idx, pmu->reprogram_pmi);
			pending = true;
		}
	}

	if (pending)
		kvm_pmu_handle_event(vcpu);
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
			kvm_pmu_fold_emulated_counters(vcpu);
		msr_info->data = pmu->global_status;
		break;
	default:
		return 1;
	}
	return 0;
}

void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
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
	pmc->emulated_counter++;
	if (!pmc_defer_emulated_reprogram(pmc))
		kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
