// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the sync shape, just enough around it. */
#include <linux/perf_event.h>
#include <linux/sort.h>
#include "pmu.h"

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

void reprogram_counter(struct kvm_pmc *pmc)
{
	u64 eventsel = pmc->eventsel;

	pmc_pause_counter(pmc);

	if (!pmc_speculative_in_use(pmc) || !pmc_is_enabled(pmc))
		return;

	pmc_reprogram_counter(pmc, eventsel);
}
EXPORT_SYMBOL_GPL(reprogram_counter);

void kvm_pmu_handle_event(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reprogram_pending(vcpu);
}

void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	u64 prev_count;

	prev_count = pmc->counter;
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	reprogram_counter(pmc);
	if (pmc->counter < prev_count)
		__kvm_perf_overflow(pmc, false);
}
