// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the sync shape, just enough around it. */
void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch = tolerance ? BIT_ULL(ilog2((u64)tolerance + 1)) : 1;
	u64 prev_count;

	prev_count = pmc->counter;
	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	/*
	 * Batch reprograms: reprogram when the counter reaches a multiple of
	 * the largest power of two not above tolerance + 1.  The counter moves
	 * by one per emulated instruction, so it is reprogrammed at least every
	 * tolerance + 1 of them, and always when it wraps to 0.  Skipping
	 * leaves the perf event running: guest reads of pmc->counter plus the
	 * event's count stay exact.
	 */
	if (pmc->counter & (batch - 1))
		return;

	/* Fold in the hardware count; a wrap in this batch lands below prev. */
	reprogram_counter(pmc);
	if (pmc->counter < prev_count)
		__kvm_perf_overflow(pmc, false);
}
