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

/*
 * pmc->prev_counter with PMC_PREV_BATCHED: the counter's value before the
 * first emulated increment whose reprogram was batched, i.e. the value the
 * perf event's sample period was last computed from.  With PMC_PREV_VALUE:
 * the value the guest saw before an emulated increment that could not start
 * a batch.  Without either: pmc->counter before the last emulated increment,
 * as without batching.
 */
#define PMC_PREV_BATCHED	BIT_ULL(63)
#define PMC_PREV_VALUE		BIT_ULL(62)
#define PMC_PREV_FLAGS		(PMC_PREV_BATCHED | PMC_PREV_VALUE)

/*
 * Whether the counter passed its wrap since the last fold with emulated
 * increments in it, @before and @after being its value without and with what
 * the perf event counted since then.  A batch leaves the increments out of
 * the sample period, so perf cannot see a wrap that they and counted events
 * make together; it has signalled one that counted events made on their own
 * (its period ran out), which is not signalled again.
 */
static bool pmc_emulated_overflow(struct kvm_pmc *pmc, u64 before, u64 after)
{
	u64 mask = pmc_bitmask(pmc), base = pmc->prev_counter;
	u64 counted = (after - before) & mask;

	if (!(base & PMC_PREV_FLAGS))
		return after < base;
	if (base & PMC_PREV_VALUE)
		return after < (base & ~PMC_PREV_FLAGS);

	base &= ~PMC_PREV_FLAGS;
	if (base + counted > mask)
		return false;

	return before < base || before + counted > mask;
}

static void reprogram_counter(struct kvm_pmc *pmc)
{
	struct kvm_pmu *pmu = pmc_to_pmu(pmc);
	u64 eventsel = pmc->eventsel;
	u64 new_config = eventsel;
	u64 before = pmc->counter;
	u8 fixed_ctr_ctrl;

	pmc_pause_counter(pmc);

	/*
	 * The emulated increments were counted while the counter was enabled
	 * and allowed: signal their overflow even if it no longer is, and drop
	 * the snapshot, which a failed pmc_reprogram_counter() below would
	 * leave for its retry to compare against again.
	 */
	if (pmc->prev_counter &&
	    pmc_emulated_overflow(pmc, before, pmc->counter))
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

/*
 * Before a write of the counter: signal the overflow that emulated increments
 * waiting for a reprogram caused, which the write would drop.  While batching,
 * fold the counter at the next VM-entry too: the write re-periods the event
 * from a value offset by its count, not from the one the guest wrote.
 */
void kvm_pmu_write_pending_overflow(struct kvm_pmc *pmc)
{
	if (pmc->prev_counter &&
	    pmc_emulated_overflow(pmc, pmc->counter, pmc_read_counter(pmc)))
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;

	if (READ_ONCE(emulated_counter_reprogram_tolerance) &&
	    pmc->perf_event && !pmc->is_paused)
		kvm_pmu_request_counter_reprogram(pmc);
}
EXPORT_SYMBOL_GPL(kvm_pmu_write_pending_overflow);

void kvm_pmu_handle_event(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reprogram_pending(vcpu);
}

/*
 * Before KVM_RUN returns: fold every counter with emulated increments waiting
 * and deliver what is owed, as vcpu->requests is not state userspace saves.
 */
void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu)
{
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);
	int i;

	for (i = 0; i < pmu->nr_arch_gp_counters; i++)
		if (pmu->gp_counters[i].prev_counter)
			kvm_pmu_request_counter_reprogram(&pmu->gp_counters[i]);
	for (i = 0; i < pmu->nr_arch_fixed_counters; i++)
		if (pmu->fixed_counters[i].prev_counter)
			kvm_pmu_request_counter_reprogram(&pmu->fixed_counters[i]);

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
	u64 mask = pmc_bitmask(pmc), prev_counter = pmc->counter;

	pmc->counter = (pmc->counter + 1) & mask;

	/* Without batching, as before; a batch still waiting keeps its base. */
	if (!tolerance) {
		if (!(pmc->prev_counter & PMC_PREV_FLAGS))
			pmc->prev_counter = prev_counter;
		kvm_pmu_request_counter_reprogram(pmc);
		return;
	}

	/*
	 * A batch starts at the first increment after a fold, from a counter
	 * whose pmc->counter is its value: the event has counted nothing since
	 * (a counter write leaves pmc->counter offset by the event's count).
	 * Otherwise fold first, as without batching.
	 */
	if (!(pmc->prev_counter & PMC_PREV_BATCHED)) {
		u64 value = pmc->counter;

		if (pmc->perf_event && !pmc->is_paused)
			value = pmc_read_counter(pmc);
		if (pmc->prev_counter || value != pmc->counter) {
			if (!pmc->prev_counter)
				pmc->prev_counter = ((value - 1) & mask) |
						    PMC_PREV_VALUE;
			kvm_pmu_request_counter_reprogram(pmc);
			return;
		}
		pmc->prev_counter = prev_counter | PMC_PREV_BATCHED;
	}

	/*
	 * Reprogram once the batch exceeds the tolerance or half the counter's
	 * range, and at once when the increments wrap the counter.
	 */
	if (pmc->counter &&
	    pmc->counter > (pmc->prev_counter & ~PMC_PREV_FLAGS) &&
	    pmc->counter - (pmc->prev_counter & ~PMC_PREV_FLAGS) <=
	    min_t(u64, tolerance, mask >> 1))
		return;

	kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
