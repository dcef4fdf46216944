// SPDX-License-Identifier: GPL-2.0
/*
 * A simulated perf PMU behind each vPMC's perf_event: it counts the native
 * events the trace feeds it while enabled, honours sample_period (a period
 * that runs out calls the overflow handler KVM registered and restarts, as
 * perf does on a counter overflow), and pauses, re-periods, enables, reads
 * and releases as the perf core does.  Every call is logged, for the
 * differential check.
 */
#include <stdio.h>

#include "kernel.h"
#include "world.h"

/*
 * The host's limit_period (w->min_period, 0: none): x86 perf refuses a
 * sampling period below it, at creation (x86_pmu_hw_config(): "if (left >
 * event->attr.sample_period) return -EINVAL", 7.3
 * arch/x86/events/core.c:649-654) and in perf_event_period()
 * (x86_pmu_check_period(), core.c:2765-2778, called by
 * _perf_event_period(), kernel/events/core.c:6581, before
 * __perf_event_period() changes anything).  Haswell's hsw_limit_period()
 * and Nehalem's nhm_limit_period() give 32, Broadwell's INST_RETIRED.ALL
 * and Golden Cove's precise_ip=3 events 128
 * (arch/x86/events/intel/core.c:5781-5819); the sim applies one minimum
 * to every event.
 */
static int below_min_period(const struct world *w, u64 period)
{
	return w->min_period && period && period < w->min_period;
}

/* Remember (or forget) that perf refused an event for @ctx. */
static void note_refused(struct world *w, const void *ctx, int refused)
{
	int i, free_slot = -1;

	for (i = 0; i < SIM_MAX_EVENTS; i++) {
		if (w->refused_ctx[i] == ctx) {
			if (!refused)
				w->refused_ctx[i] = NULL;
			return;
		}
		if (!w->refused_ctx[i] && free_slot < 0)
			free_slot = i;
	}
	if (refused && free_slot >= 0)
		w->refused_ctx[free_slot] = ctx;
}

/* The vCPU is gone: so are the counters perf refused events for. */
void sim_refused_clear(struct world *w)
{
	memset(w->refused_ctx, 0, sizeof(w->refused_ctx));
}

struct perf_event *perf_event_create_kernel_counter(struct perf_event_attr *a,
						    int cpu,
						    struct task_struct *task,
						    perf_overflow_handler_t h,
						    void *context)
{
	struct world *w = sim_cur;
	struct perf_event *e;
	int i;

	(void)cpu;
	(void)task;
	w->nr_perf_calls++;
	note_refused(w, context, below_min_period(w, a->sample_period));
	if (below_min_period(w, a->sample_period)) {
		w->nr_refused++;
		sim_log(" create(config=%#llx period=%llu)=-EINVAL",
			(unsigned long long)a->config,
			(unsigned long long)a->sample_period);
		return ERR_PTR(-EINVAL);
	}
	if (w->nr_created < SIM_MAX_EVENTS)
		w->created_ctx[w->nr_created++] = context;
	e = calloc(1, sizeof(*e));
	e->attr = *a;
	e->overflow_handler = h;
	e->overflow_handler_context = context;
	e->sim.period_left = a->sample_period;
	e->sim.enabled = !a->disabled;
	e->sim.id = w->next_event_id++;
	for (i = 0; i < SIM_MAX_EVENTS; i++)
		if (!w->events[i]) {
			w->events[i] = e;
			break;
		}
	sim_log(" create(#%d config=%#llx period=%llu xu=%d xk=%d pebs=%d)",
		e->sim.id, (unsigned long long)a->config,
		(unsigned long long)a->sample_period, (int)a->exclude_user,
		(int)a->exclude_kernel, (int)a->precise_ip);
	return e;
}

u64 perf_event_pause(struct perf_event *e, bool reset)
{
	u64 count = e->sim.count;

	e->sim.enabled = 0;
	if (reset)
		e->sim.count = 0;
	sim_log(" pause(#%d)=%llu", e->sim.id, (unsigned long long)count);
	sim_cur->nr_perf_calls++;
	sim_cur->nr_pause++;
	return count;
}

int perf_event_period(struct perf_event *e, u64 value)
{
	sim_cur->nr_perf_calls++;
	/*
	 * _perf_event_period() (7.3 kernel/events/core.c:6569-6590): 0 and a
	 * period the PMU's check_period refuses fail with -EINVAL, and
	 * attr.sample_period and the running period stay as they were.
	 */
	if (!value || below_min_period(sim_cur, value)) {
		sim_cur->nr_refused++;
		sim_log(" period(#%d,%llu)=-EINVAL", e->sim.id,
			(unsigned long long)value);
		return -EINVAL;
	}
	/* __perf_event_period(): period_left restarts from the new period */
	e->attr.sample_period = value;
	e->sim.period_left = value;
	sim_log(" period(#%d,%llu)", e->sim.id, (unsigned long long)value);
	return 0;
}

void perf_event_enable(struct perf_event *e)
{
	e->sim.enabled = 1;
	sim_log(" enable(#%d)", e->sim.id);
	sim_cur->nr_perf_calls++;
}

void perf_event_disable(struct perf_event *e)
{
	e->sim.enabled = 0;
	sim_log(" disable(#%d)", e->sim.id);
	sim_cur->nr_perf_calls++;
}

u64 perf_event_read_value(struct perf_event *e, u64 *enabled, u64 *running)
{
	*enabled = *running = 0;
	if (sim_cur)
		sim_cur->nr_read++;
	return e->sim.count;
}

int perf_event_release_kernel(struct perf_event *e)
{
	struct world *w = sim_cur;
	int i;

	for (i = 0; i < SIM_MAX_EVENTS; i++)
		if (w && w->events[i] == e)
			w->events[i] = NULL;
	sim_log(" release(#%d)", e->sim.id);
	if (w)
		w->nr_perf_calls++;
	free(e);
	return 0;
}

/*
 * @n native events with event select @code (event and unit mask) retire in
 * the guest, at CPL 0: every enabled event counting them counts them, and
 * a sampling event whose period runs out overflows.
 */
void sim_native(struct world *w, u64 code, u64 n)
{
	int i;

	for (i = 0; i < SIM_MAX_EVENTS; i++) {
		struct perf_event *e = w->events[i];
		u64 left = n;

		if (!e || !e->sim.enabled || e->attr.exclude_kernel ||
		    (e->attr.config & 0xf0000ffffULL) != code)
			continue;
		while (left) {
			u64 step = left;

			if (e->attr.sample_period &&
			    (u64)e->sim.period_left <= step)
				step = e->sim.period_left;
			e->sim.count += step;
			left -= step;
			if (!e->attr.sample_period)
				continue;
			e->sim.period_left -= step;
			if (e->sim.period_left <= 0) {
				e->sim.period_left = e->attr.sample_period;
				sim_log(" overflow(#%d)", e->sim.id);
				w->in_overflow++;
				e->overflow_handler(e, NULL, NULL);
				w->in_overflow--;
				/* the handler may have released @e */
				if (w->events[i] != e)
					break;
			}
		}
	}
}
