// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the end of KVM_RUN, all the rules touch. */
#include "pmu.h"

int kvm_arch_vcpu_ioctl_run(struct kvm_vcpu *vcpu)
{
	int r;

	vcpu_load(vcpu);
	if (!vcpu->wants_to_run) {
		r = -EINTR;
		goto out;
	}

	r = vcpu_run(vcpu);

out:
	kvm_put_guest_fpu(vcpu);
	post_kvm_run_save(vcpu);
	vcpu_put(vcpu);
	return r;
}
