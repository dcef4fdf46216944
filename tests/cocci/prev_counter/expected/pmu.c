// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the prev_counter shape, just enough around it. */
void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch = tolerance ? BIT_ULL(ilog2((u64)tolerance + 1)) : 1;
	u64 prev_counter = pmc->counter;

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	/*
	 * Batch reprograms: request one when the counter reaches a multiple of
	 * the largest power of two not above tolerance + 1.  The counter moves
	 * by one per emulated instruction, so a reprogram is requested at
	 * least every tolerance + 1 of them, and always when it wraps to 0.
	 */
	if (pmc->counter & (batch - 1))
		return;

	/*
	 * reprogram_counter() signals overflow if the counter went below
	 * prev_counter and then zeroes prev_counter.  While a batched request
	 * is pending keep the oldest value, or a wrap earlier in the batch
	 * would be lost.
	 */
	if (batch == 1 || !pmc->prev_counter)
		pmc->prev_counter = prev_counter;
	kvm_pmu_request_counter_reprogram(pmc);
}

static inline bool cpl_is_matched(struct kvm_pmc *pmc)
{
	return true;
}
