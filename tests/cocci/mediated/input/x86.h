// SPDX-License-Identifier: GPL-2.0
/* Fixture written for the tests: the mediated shape, just enough around it. */
#ifndef ARCH_X86_KVM_X86_H
#define ARCH_X86_KVM_X86_H

extern struct kvm_caps kvm_caps;

#endif
