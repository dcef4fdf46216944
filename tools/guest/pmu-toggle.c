// SPDX-License-Identifier: GPL-2.0
/*
 * pmu-toggle: the v2 posting's PMU load, in the guest of the latency job.
 * An instructions-retired counter stays resident on every CPU; a group
 * (cycles leading instructions and branches) on every CPU is enabled and
 * disabled from CPU 0 once a second, so each toggle reaches the other
 * vCPUs by a cross-CPU call.  With a vPMU each of them is backed by a
 * host perf_event: what KVM reprograms.  Runs until killed; exits 1 when
 * the guest has no PMU (no hardware events), saying so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_event(unsigned long long config, int cpu, int group,
		      int disabled)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = disabled;
	a.exclude_kernel = 0;
	return syscall(SYS_perf_event_open, &a, -1, cpu, group, 0);
}

int main(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), cpu;
	int *leader = calloc(n, sizeof(int));
	cpu_set_t set;

	if (!leader)
		return 1;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (cpu = 0; cpu < n; cpu++) {
		/* resident: enabled now, never touched again */
		int resident = open_event(PERF_COUNT_HW_INSTRUCTIONS, cpu,
					  -1, 0);

		leader[cpu] = open_event(PERF_COUNT_HW_CPU_CYCLES, cpu, -1, 1);
		if (resident < 0 || leader[cpu] < 0 ||
		    open_event(PERF_COUNT_HW_INSTRUCTIONS, cpu,
			       leader[cpu], 0) < 0 ||
		    open_event(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, cpu,
			       leader[cpu], 0) < 0) {
			printf("pmu-toggle: no PMU here: perf_event_open on CPU %ld: %s\n",
			       cpu, strerror(errno));
			return 1;
		}
	}
	printf("pmu-toggle: %ld CPUs, toggling once a second\n", n);
	fflush(stdout);
	for (;;) {
		for (cpu = 0; cpu < n; cpu++)
			ioctl(leader[cpu], PERF_EVENT_IOC_ENABLE,
			      PERF_IOC_FLAG_GROUP);
		sleep(1);
		for (cpu = 0; cpu < n; cpu++)
			ioctl(leader[cpu], PERF_EVENT_IOC_DISABLE,
			      PERF_IOC_FLAG_GROUP);
		sleep(1);
	}
}
