// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the sync shape, just enough around it. */
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
