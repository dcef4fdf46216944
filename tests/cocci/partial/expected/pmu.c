// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture written for the tests: the emulated_counter shape without the
 * kvm_pmu_get_msr() the fold on a host-initiated status read goes into.
 */
#include <linux/sort.h>

struct x86_pmu_capability __read_mostly kvm_pmu_cap;
EXPORT_SYMBOL_GPL(kvm_pmu_cap);

static bool pmc_pause_counter(struct kvm_pmc *pmc)
{
	pmc->emulated_counter = 0;
	pmc->is_paused = true;
	return false;
}

void pmc_write_counter(struct kvm_pmc *pmc, u64 val)
{
	pmc->emulated_counter = 0;
	pmc->counter += val - pmc_read_counter(pmc);
	pmc_update_sample_period(pmc);
}

static int reprogram_counter(struct kvm_pmc *pmc)
{
	bool emulate_overflow;

	emulate_overflow = pmc_pause_counter(pmc);

	if (!pmc_event_is_allowed(pmc))
		return 0;

	if (emulate_overflow)
		__kvm_perf_overflow(pmc, false);

	return pmc_reprogram_counter(pmc);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	pmc->emulated_counter++;
	kvm_pmu_request_counter_reprogram(pmc);
}
