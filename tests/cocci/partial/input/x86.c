// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: a KVM_RUN that returns from one place. */
#include "pmu.h"

int kvm_arch_vcpu_ioctl_run(struct kvm_vcpu *vcpu)
{
	int r;

	vcpu_load(vcpu);
	r = vcpu_run(vcpu);
	vcpu_put(vcpu);
	return r;
}
