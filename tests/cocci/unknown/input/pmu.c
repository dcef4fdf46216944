// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the unknown shape, just enough around it. */
static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	pmc->counter += 2;
	kvm_pmu_request_counter_reprogram(pmc);
}
