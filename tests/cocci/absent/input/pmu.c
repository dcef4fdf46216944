// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the absent shape, just enough around it. */
void kvm_pmu_destroy(struct kvm_vcpu *vcpu)
{
	kvm_pmu_reset(vcpu);
}
