// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the emulated_counter shape, just enough around it. */
void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);

	pmc->emulated_counter++;

	/*
	 * Batch reprograms: only force one once the accumulated emulated
	 * count exceeds the tolerance.  The count is still reflected in guest
	 * counter reads via pmc->emulated_counter; this only bounds how late
	 * an overflow-driven PMI arrives.
	 */
	if (pmc->emulated_counter > tolerance)
		kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
