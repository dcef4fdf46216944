// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the sync shape, just enough around it. */
#include <linux/perf_event.h>
#include <linux/sort.h>
#include <linux/moduleparam.h>
#include "pmu.h"

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

/*
 * Number of KVM-emulated instructions that may accumulate on an emulated
 * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
 * perf event's count into the counter.  Writable at runtime, read with
 * READ_ONCE().
 */
static uint __read_mostly emulated_counter_reprogram_tolerance;
module_param(emulated_counter_reprogram_tolerance, uint, 0644);

/*
 * Batched emulated increments are in pmc->counter, but not in the sample
 * period of its perf event, which was set at the last reprogram: the counter
 * can pass its wrap, emulated and counted events together, before perf
 * signals an overflow.  Whether it has: its value is below pmc->counter,
 * which lacks only what perf counted since the last reprogram.
 */
static bool pmc_batched_overflow(struct kvm_pmc *pmc)
{
	return READ_ONCE(emulated_counter_reprogram_tolerance) &&
	       pmc->perf_event && !pmc->is_paused &&
	       pmc_read_counter(pmc) < pmc->counter;
}

static void __reprogram_counter(struct kvm_pmc *pmc, bool batched_overflow)
{
	u64 eventsel = pmc->eventsel;

	pmc_pause_counter(pmc);

	/*
	 * The events were counted while the counter was enabled; it may be
	 * disabled by now.  Ignored if perf signalled the overflow already.
	 */
	if (batched_overflow)
		__kvm_perf_overflow(pmc, false);

	if (!pmc_speculative_in_use(pmc) || !pmc_is_enabled(pmc))
		return;

	pmc_reprogram_counter(pmc, eventsel);
}

void reprogram_counter(struct kvm_pmc *pmc)
{
	__reprogram_counter(pmc, pmc_batched_overflow(pmc));
}
EXPORT_SYMBOL_GPL(reprogram_counter);

/* Before a write of the counter drops an overflow batching left pending. */
void kvm_pmu_fold_batched_overflow(struct kvm_pmc *pmc)
{
	if (pmc_batched_overflow(pmc))
		reprogram_counter(pmc);
}
EXPORT_SYMBOL_GPL(kvm_pmu_fold_batched_overflow);

void kvm_pmu_handle_event(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reprogram_pending(vcpu);
}

void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

/*
 * Whether the reprogram of an emulated increment may wait: with a tolerance,
 * until the counter reaches a multiple of the largest power of two not above
 * tolerance + 1 (at least every tolerance + 1 increments, and always at a
 * wrap to 0), unless the counter has passed its wrap with what perf counted.
 */
static bool pmc_defer_reprogram(struct kvm_pmc *pmc)
{
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch;

	if (!tolerance)
		return false;

	batch = BIT_ULL(ilog2((u64)tolerance + 1));
	if (!(pmc->counter & (batch - 1)))
		return false;

	return !pmc_batched_overflow(pmc);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	u64 prev_count;

	prev_count = pmc->counter;
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	if (pmc_defer_reprogram(pmc))
		return;

	/* A wrap since the last reprogram lands below prev_count. */
	__reprogram_counter(pmc, false);
	if (pmc->counter < prev_count)
		__kvm_perf_overflow(pmc, false);
}
