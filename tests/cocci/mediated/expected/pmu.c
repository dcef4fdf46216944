// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
/* Enable/disable PMU virtualization */
bool __read_mostly enable_pmu = true;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_pmu);
module_param(enable_pmu, bool, 0444);

/*
 * Number of KVM-emulated instructions that may accumulate on an emulated
 * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
 * emulated count into the backing perf_event.  Writable at runtime, read with
 * READ_ONCE() in the emulation path.
 */
static uint __read_mostly emulated_counter_reprogram_tolerance;
module_param(emulated_counter_reprogram_tolerance, uint, 0644);

/* Enable/disabled mediated PMU virtualization. */
bool __read_mostly enable_mediated_pmu;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_mediated_pmu);

static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
{
	struct kvm_vcpu *vcpu = pmc->vcpu;

	/*
	 * For perf-based PMUs, accumulate software-emulated events separately.
	 */
	if (!kvm_vcpu_has_mediated_pmu(vcpu)) {
		u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);

		pmc->emulated_counter++;

		/*
		 * Batch reprograms: only force one once the accumulated
		 * emulated count exceeds the tolerance.  The count is still
		 * reflected in guest counter reads via pmc->emulated_counter;
		 * this only bounds how late an overflow-driven PMI arrives.
		 */
		if (pmc->emulated_counter > tolerance)
			kvm_pmu_request_counter_reprogram(pmc);
		return;
	}

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
	if (!pmc->counter) {
		pmc_to_pmu(pmc)->global_status |= BIT_ULL(pmc->idx);
		if (pmc_is_pmi_enabled(pmc))
			kvm_make_request(KVM_REQ_PMI, vcpu);
	}
}
