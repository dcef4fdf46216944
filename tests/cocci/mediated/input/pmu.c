// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
/* Enable/disable PMU virtualization */
bool __read_mostly enable_pmu = true;
EXPORT_SYMBOL_FOR_KVM_INTERNAL(enable_pmu);
module_param(enable_pmu, bool, 0444);

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
		pmc->emulated_counter++;
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
