// SPDX-License-Identifier: GPL-2.0
/*
 * sim: run a tree's own vPMU code, pristine and patched, against a
 * simulated perf PMU.  The functions the emulated-count path goes through
 * are cut out of each tree's arch/x86/kvm/ at run time (extract.c), written
 * into a generated unit after our stub headers (tools/sim/kernel.h), and
 * linked with the harness (tools/sim/: harness.c, model.c, ops.c, trace.c,
 * check.c, perf.c): seeded traces, a reference model, invariants, a
 * shrinker.  No kernel code is kept here.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/hash.h"
#include "lib/parse-options.h"
#include "lib/run.h"
#include "lib/sandbox.h"
#include "lib/tree.h"
#include "lib/usage.h"
#include "sim.h"
#include "sources/extract.h"

/*
 * Where the definitions are looked for, in this order.  The first
 * NR_KVM_FILES are KVM's own: a definition there that a selected one uses
 * comes along (a helper a fix adds, say), unless our stubs define the name.
 */
#define NR_KVM_FILES 4
const char *const sim_files[] = {
	"arch/x86/kvm/pmu.c",
	"arch/x86/kvm/pmu.h",
	"arch/x86/kvm/svm/pmu.c",
	"arch/x86/kvm/vmx/pmu_intel.c",
	"arch/x86/include/asm/kvm_host.h",
	"arch/x86/include/uapi/asm/kvm.h",
	"?arch/x86/kvm/vmx/pmu_intel.h",
	"?arch/x86/kvm/vmx/vmx.h",
	/* KVM_RUN's body alone (run_names[]): its callees are x86_run.h's */
	"arch/x86/kvm/x86.c",
};

/* The files common_names[] are looked for in: all but x86.c. */
#define NR_NAME_FILES (ARRAY_SIZE(sim_files) - 1)
#define X86_FILE (ARRAY_SIZE(sim_files) - 1)

/*
 * What is cut out of x86.c: the return to userspace, whose path decides
 * whether the tree's kvm_pmu_sync_to_userspace() runs.  Nothing it calls
 * comes along from x86.c: tools/sim/x86_run.h stands in for each.
 */
static const char *const run_names[] = {
	"kvm_arch_vcpu_ioctl_run",
};

const size_t nr_sim_files = ARRAY_SIZE(sim_files);

/*
 * The names each era needs; "?" marks one a tree may lack.  Types and
 * macros first: they are written in this order.
 */
static const char *const common_names[] = {
	"?KVM_MAX", "?KVM_MAX_NR_INTEL_GP_COUNTERS",
	"?KVM_MAX_NR_AMD_GP_COUNTERS", "?KVM_MAX_NR_GP_COUNTERS",
	"?KVM_MAX_NR_INTEL_FIXED_COUTNERS", "?KVM_MAX_NR_AMD_FIXED_COUTNERS",
	"?KVM_MAX_NR_INTEL_FIXED_COUNTERS", "?KVM_MAX_NR_AMD_FIXED_COUNTERS", "?KVM_MAX_NR_FIXED_COUNTERS",
	"?KVM_PMC_MAX_FIXED", "?KVM_INTEL_PMC_MAX_GENERIC",
	"?KVM_AMD_PMC_MAX_GENERIC", "?INTEL_PMC_MAX_GENERIC",
	"?KVM_PMU_EVENT_FILTER_MAX_EVENTS",
	"vcpu_to_pmu", "pmu_to_vcpu", "pmc_to_pmu", "fixed_ctrl_field",
	"?KVM_FIXED_PMC_BASE_IDX", "?kvm_for_each_pmc",
	"VMWARE_BACKDOOR_PMC_HOST_TSC", "VMWARE_BACKDOOR_PMC_REAL_TIME",
	"VMWARE_BACKDOOR_PMC_APPARENT_TIME",
	"enum pmc_type", "struct kvm_pmc", "struct kvm_pmu",
	"struct kvm_pmu_ops", "?struct kvm_event_hw_type_mapping",
	"?struct kvm_pmu_emulated_event_selectors",
	"struct kvm_pmu_event_filter", "?struct kvm_x86_pmu_event_filter",
	"enum pmu_type",
	/* variables */
	"?kvm_pmu_eventsel", "?kvm_pmu_cap", "?intel_arch_events",
	"?fixed_pmc_events", "?amd_event_mapping", "?amd_f17h_event_mapping",
	/* pmu.h */
	"?kvm_pmu_has_perf_global_ctrl", "?kvm_vcpu_has_mediated_pmu",
	"?kvm_pmc_idx_to_pmc", "pmc_bitmask", "pmc_read_counter",
	"?pmc_write_counter", "?pmc_release_perf_event", "?pmc_stop_counter",
	"pmc_is_gp", "pmc_is_fixed", "?kvm_valid_perf_global_ctrl",
	"get_gp_pmc", "get_fixed_pmc", "?get_sample_period",
	"?pmc_update_sample_period", "?pmc_speculative_in_use",
	"?pmc_is_locally_enabled", "?kvm_pmu_request_counter_reprogram",
	"?__kvm_pmu_reprogram_counters", "?kvm_pmu_request_counters_reprogram",
	"?reprogram_counters", "?pmc_is_globally_enabled",
	/* pmu.c */
	"?pmc_is_enabled", "__kvm_perf_overflow", "kvm_perf_overflow",
	"?pmc_get_pebs_precise_level", "pmc_reprogram_counter",
	"pmc_pause_counter", "pmc_resume_counter",
	"?filter_cmp", "?filter_sort_cmp", "?filter_event_cmp",
	"?find_filter_index", "?is_filter_entry_match",
	"?filter_contains_match", "?is_gp_event_allowed",
	"?is_fixed_event_allowed", "?cmp_u64", "?check_pmu_event_filter",
	"?pmc_event_is_allowed", "?pmc_is_event_allowed",
	"?kvm_mediated_pmu_refresh_event_filter",
	"reprogram_counter", "?pmc_is_event_match",
	"?kvm_pmu_recalc_pmc_emulation", "kvm_pmu_handle_event",
	"is_vmware_backdoor_pmc", "kvm_pmu_rdpmc_vmware", "kvm_pmu_rdpmc",
	"?kvm_pmu_mark_pmc_in_use", "kvm_pmu_get_msr", "kvm_pmu_set_msr",
	"kvm_pmu_cleanup", "?pmc_is_pmi_enabled", "kvm_pmu_incr_counter",
	"kvm_pmu_deliver_pmi", "?kvm_pmu_sync_to_userspace",
	"?eventsel_match_perf_hw_id", "cpl_is_matched",
	"kvm_pmu_trigger_event", "?kvm_pmu_instruction_retired",
	"?kvm_pmu_branch_retired", "?is_masked_filter_valid",
	"?convert_to_masked_filter", "?prepare_filter_lists",
	"kvm_vm_ioctl_set_pmu_event_filter",
	/* svm/pmu.c */
	"?amd_pmu_get_pmc", "?amd_pmc_idx_to_pmc", "get_gp_pmc_amd",
	"?amd_hw_event_available", "?amd_pmc_is_enabled",
	"amd_rdpmc_ecx_to_pmc", "amd_msr_idx_to_pmc", "amd_pmu_get_msr",
	"amd_pmu_set_msr",
	/* vmx/pmu_intel.c */
	"?intel_pmu_has_perf_global_ctrl",
	"reprogram_fixed_counters", "?intel_pmc_idx_to_pmc",
	"?intel_hw_event_available", "?intel_pmc_is_enabled",
	"intel_rdpmc_ecx_to_pmc", "?vcpu_get_perf_capabilities_unused", "?fw_writes_is_enabled", "?get_fw_gp_pmc",
	"intel_msr_idx_to_pmc", "intel_pmu_get_msr", "intel_pmu_set_msr",
	NULL,
};

const char *sim_era_name(enum sim_era era)
{
	static const char *const names[] = {
		[SIM_ERA_NONE] = "none", [SIM_ERA_SYNC] = "sync",
		[SIM_ERA_PREV] = "prev_counter",
		[SIM_ERA_EMULATED] = "emulated_counter",
		[SIM_ERA_MEDIATED] = "mediated",
	};

	return names[era];
}

/* The era of a tree, from its own code. */
enum sim_era sim_detect_era(const char *tree, struct strbuf *why)
{
	struct strbuf h = STRBUF_INIT, c = STRBUF_INIT, k = STRBUF_INIT;
	char *ph = xstrfmt("%s/arch/x86/kvm/pmu.h", tree);
	char *pc = xstrfmt("%s/arch/x86/kvm/pmu.c", tree);
	char *pk = xstrfmt("%s/arch/x86/include/asm/kvm_host.h", tree);
	enum sim_era era = SIM_ERA_NONE;
	const char *pmc;

	if (strbuf_read_file(&h, ph, 4 << 20) < 0 ||
	    strbuf_read_file(&c, pc, 4 << 20) < 0 ||
	    strbuf_read_file(&k, pk, 4 << 20) < 0) {
		strbuf_addf(why, "%s is not a kernel tree with arch/x86/kvm/pmu.[ch] and asm/kvm_host.h",
			    tree);
		goto out;
	}
	pmc = strstr(k.buf, "struct kvm_pmc {");
	if (strstr(h.buf, "kvm_vcpu_has_mediated_pmu"))
		era = SIM_ERA_MEDIATED;
	else if (pmc && strstr(pmc, "emulated_counter"))
		era = SIM_ERA_EMULATED;
	else if (pmc && strstr(pmc, "prev_counter"))
		era = SIM_ERA_PREV;
	else if (strstr(c.buf, "kvm_pmu_incr_counter"))
		era = SIM_ERA_SYNC;
	else
		strbuf_addf(why, "%s has no per-emulated-instruction PMU accounting (kvm_pmu_incr_counter, 5.19+): nothing to simulate",
			    tree);
out:
	strbuf_release(&h);
	strbuf_release(&c);
	strbuf_release(&k);
	free(ph);
	free(pc);
	free(pk);
	return era;
}

static const struct extract_item *find_in(struct extract_file *files,
					  int n, const char *name)
{
	const struct extract_item *it;
	int i;

	for (i = 0; i < n; i++) {
		it = extract_find(&files[i], name);
		if (it)
			return it;
	}
	return NULL;
}

static int has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	const char *p = s;

	while ((p = memmem(p, n - (p - s), w, wl))) {
		if ((p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) &&
		    !(p[wl] == '_' || (p[wl] >= 'a' && p[wl] <= 'z')))
			return 1;
		p += wl;
	}
	return 0;
}

/* Our stub headers, in the order the closure consults them. */
static const char *const stub_names[] = { "kernel.h", "vcpu.h", "x86_run.h" };
#define NR_STUBS ARRAY_SIZE(stub_names)

struct closure {
	struct extract_file *files;
	struct extract_file *stubs;	/* stub_names[] */
	const struct extract_item **items;
	size_t n, alloc;
};

static int selected(const struct closure *cl, const struct extract_item *it)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (cl->items[i] == it ||
		    (cl->items[i]->kind == it->kind &&
		     !strcmp(cl->items[i]->name, it->name)))
			return 1;
	return 0;
}

static void select_item(struct closure *cl, const struct extract_item *it)
{
	if (cl->n == cl->alloc) {
		cl->alloc = cl->alloc ? 2 * cl->alloc : 256;
		cl->items = xrealloc(cl->items, cl->alloc * sizeof(*cl->items));
	}
	cl->items[cl->n++] = it;
}

/* Used only inside a stubbed macro's arguments: x86_match_cpu(). */
static int never_follow(const char *name)
{
	static const char *const names[] = {
		"vmx_pebs_pdist_cpu", "vmx_pebs_pdir_cpu", "vmx_icl_pebs_cpu",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

static void use_ident(const char *id, size_t n, void *data)
{
	struct closure *cl = data;
	const struct extract_item *it = NULL;
	char name[128];
	size_t i;

	if (n >= sizeof(name))
		return;
	memcpy(name, id, n);
	name[n] = '\0';
	for (i = 0; i < NR_STUBS; i++)
		if (extract_find(&cl->stubs[i], name))
			return;
	if (never_follow(name))
		return;
	for (i = 0; i < NR_KVM_FILES && !it; i++)
		it = extract_find(&cl->files[i], name);
	if (it && !selected(cl, it))
		select_item(cl, it);
}

/* A definition made file-local, so two trees link into one program. */
static void add_static(struct strbuf *out, const char *text, size_t len)
{
	if (!has_word(text, len, "static"))
		strbuf_addstr(out, "static ");
	strbuf_add(out, text, len);
}

/*
 * Names that differ inside an era (6.2-6.7 above all: 6.2's filter without
 * masked events, 6.5's renamed reserved-bit masks, vendor ops that came and
 * went): glue.c sees SIM_HAS_<name> for each one the tree's selected
 * definitions mention.
 */
static const char *const probes[] = {
	"kvm_x86_pmu_event_filter", "global_status_mask", "EVENTSEL_EVENT",
	/* the static calls the tree makes, and the vendor functions */
	"kvm_x86_pmu_pmc_is_enabled", "kvm_x86_pmu_hw_event_available",
	"kvm_x86_pmu_pmc_idx_to_pmc", "amd_pmc_is_enabled",
	"intel_pmc_is_enabled", "amd_hw_event_available",
	"intel_hw_event_available", "amd_pmc_idx_to_pmc",
	"intel_pmc_idx_to_pmc",
};

static int has_ident(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	const char *p = s;

	while ((p = memmem(p, n - (p - s), w, wl))) {
		if ((p == s || !(p[-1] == '_' || isalnum((unsigned char)p[-1]))) &&
		    !(p[wl] == '_' || isalnum((unsigned char)p[wl])))
			return 1;
		p += wl;
	}
	return 0;
}

static void add_probes(struct strbuf *out, const struct extract_item **items,
		       size_t n)
{
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(probes); j++)
		for (i = 0; i < n; i++)
			if (has_ident(items[i]->text, items[i]->len,
				      probes[j])) {
				strbuf_addf(out, "#define SIM_HAS_%s 1\n",
					    probes[j]);
				break;
			}
}

static void clear_files(struct extract_file *f, size_t n)
{
	while (n--)
		extract_clear(&f[n]);
}

/* Parse our stubs from @src and the tree's sim_files[]; -1 with @err. */
static int parse_inputs(const char *tree, const char *src,
			struct extract_file *stubs, struct extract_file *files,
			struct strbuf *err)
{
	size_t i;

	memset(stubs, 0, NR_STUBS * sizeof(*stubs));
	for (i = 0; i < NR_STUBS; i++) {
		char *p = xstrfmt("%s/%s", src, stub_names[i]);
		int ret = extract_parse(&stubs[i], p, err);

		free(p);
		if (ret) {
			clear_files(stubs, i);
			return -1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(sim_files); i++) {
		int optional = sim_files[i][0] == '?';
		char *p = xstrfmt("%s/%s", tree, sim_files[i] + optional);
		int ret = 0;

		if (optional && !is_file(p)) {
			memset(&files[i], 0, sizeof(files[i]));
			strbuf_init(&files[i].text);
		} else {
			ret = extract_parse(&files[i], p, err);
			if (ret)
				strbuf_addf(err, ": the sim needs %s",
					    sim_files[i]);
		}
		free(p);
		if (ret) {
			clear_files(files, i);
			clear_files(stubs, NR_STUBS);
			return -1;
		}
	}
	return 0;
}

/*
 * Select common_names[] from the vPMU files and run_names[] from x86.c
 * (nothing else of x86.c), then what they use from KVM's own files; a
 * name missing is added to @err.
 */
static void select_names(struct closure *cl, int debug, const char *unit,
			 struct strbuf *err)
{
	const struct extract_item *it;
	size_t i, n;

	for (i = 0; common_names[i]; i++) {
		const char *name = common_names[i];
		int optional = *name == '?';

		name += optional;
		it = find_in(cl->files, NR_NAME_FILES, name);
		if (!it && !optional)
			strbuf_addf(err, "%s%s in the vPMU files",
				    err->len ? ", " : "", name);
		if (it)
			select_item(cl, it);
	}
	for (i = 0; i < ARRAY_SIZE(run_names); i++) {
		it = extract_find(&cl->files[X86_FILE], run_names[i]);
		if (!it)
			strbuf_addf(err, "%s%s() in %s", err->len ? ", " : "",
				    run_names[i], sim_files[X86_FILE]);
		else
			select_item(cl, it);
	}
	/* what they use from KVM's files comes along, transitively */
	n = cl->n;
	for (i = 0; i < cl->n; i++)
		extract_idents(cl->items[i]->text, cl->items[i]->len, use_ident,
			       cl);
	if (debug)
		for (i = n; i < cl->n; i++)
			fprintf(stderr, "sim: %s: also %s\n", unit,
				cl->items[i]->name);
}

/*
 * @err lists the definitions select_names() did not find: say where it
 * looked and what to do.
 */
static void missing_advice(const char *tree, enum sim_era era,
			   struct strbuf *err)
{
	struct strbuf what = STRBUF_INIT;
	size_t i;

	strbuf_add(&what, err->buf, err->len);
	strbuf_reset(err);
	strbuf_addf(err, "%s (%s era) lacks a definition the sim runs: no %s",
		    tree, sim_era_name(era), what.buf);
	if (strstr(what.buf, "the vPMU files")) {
		strbuf_addstr(err, " (those files:");
		for (i = 0; i < NR_NAME_FILES; i++)
			strbuf_addf(err, " %s",
				    sim_files[i] + (sim_files[i][0] == '?'));
		strbuf_addch(err, ')');
	}
	strbuf_addstr(err, ". The sim cuts these definitions out of the tree and runs them: give it a kernel tree of 5.19 or later with arch/x86 as released; if the tree renamed or moved one, the sim's lists of names (common_names[], run_names[]) must follow it");
	strbuf_release(&what);
}

/* The unit's text: @n items of the tree between our headers. */
static void write_unit(const char *tree, enum sim_era era, const char *unit,
		       const struct extract_item **items, size_t n,
		       struct strbuf *out)
{
	size_t i;
	int pass;

	strbuf_addf(out, "/* Generated by kverify sim from %s: the tree's own code. */\n",
		    tree);
	strbuf_addf(out, "#define SIM_ERA_%s 1\n#define SIM_ERA_NAME \"%s\"\n",
		    era == SIM_ERA_SYNC ? "SYNC" :
		    era == SIM_ERA_PREV ? "PREV" :
		    era == SIM_ERA_MEDIATED ? "MEDIATED" : "EMULATED",
		    sim_era_name(era));
	add_probes(out, items, n);
	strbuf_addf(out, "#define SIM_TREE %s\n", unit);
	strbuf_addstr(out, "#include \"kernel.h\"\n");
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			if (items[i]->kind == (pass ? ITEM_TYPE : ITEM_MACRO)) {
				strbuf_add(out, items[i]->text, items[i]->len);
				strbuf_addch(out, '\n');
			}
	strbuf_addstr(out, "#include \"vcpu.h\"\n#include \"x86_run.h\"\n");
	for (i = 0; i < n; i++)
		if (items[i]->kind == ITEM_FUNC) {
			add_static(out, items[i]->text, items[i]->head_len);
			strbuf_trim_trailing(out);
			strbuf_addstr(out, ";\n");
		}
	for (i = 0; i < n; i++)
		if (items[i]->kind == ITEM_VAR) {
			add_static(out, items[i]->text, items[i]->len);
			strbuf_addch(out, '\n');
		}
	for (i = 0; i < n; i++)
		if (items[i]->kind == ITEM_FUNC) {
			strbuf_addf(out, "#line 1 \"%s:%s\"\n", "tree",
				    items[i]->name);
			add_static(out, items[i]->text, items[i]->len);
			strbuf_addch(out, '\n');
		}
	for (i = 0; i < n; i++)
		if (items[i]->kind == ITEM_FUNC &&
		    !strcmp(items[i]->name, "kvm_pmu_sync_to_userspace"))
			strbuf_addstr(out, "#define SIM_HAS_SYNC_TO_USERSPACE 1\n");
	strbuf_addstr(out, "#include \"glue.c\"\n");
}

/*
 * Write the generated unit of @tree for @era into @out: our kernel.h, the
 * tree's macros and types, our vcpu.h and x86_run.h, then the tree's
 * variables and functions (prototypes first), then our glue.c.  -1 with
 * @err when a file cannot be read; -2 when a definition the sim runs is
 * missing from the tree (bad input: the tree is not one the sim knows).
 */
int sim_generate(const char *tree, enum sim_era era, const char *unit,
		 const char *src, int debug, struct strbuf *out,
		 struct strbuf *err)
{
	struct extract_file files[ARRAY_SIZE(sim_files)], stubs[NR_STUBS];
	struct closure cl = { files, stubs, NULL, 0, 0 };
	int ret = -1;

	if (parse_inputs(tree, src, stubs, files, err))
		return -1;
	select_names(&cl, debug, unit, err);
	if (err->len) {
		missing_advice(tree, era, err);
		ret = -2;
		goto out;
	}
	write_unit(tree, era, unit, cl.items, cl.n, out);
	ret = 0;
out:
	free(cl.items);
	clear_files(files, ARRAY_SIZE(sim_files));
	clear_files(stubs, NR_STUBS);
	return ret;
}

/* tools/sim beside the kverify binary (build/kverify, ../tools/sim). */
char *sim_source_dir(void)
{
	char exe[4096], *slash, *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			dir = xstrfmt("%s/../tools/sim", exe);
			if (is_file(dir) || is_dir(dir)) {
				char *abs = abspath(dir);

				free(dir);
				return abs;
			}
			free(dir);
		}
	}
	return abspath("tools/sim");
}

void sim_result_clear(struct sim_result *r)
{
	strbuf_release(&r->reason);
	strbuf_release(&r->output);
	strbuf_release(&r->figures);
	strbuf_release(&r->reads);
	strbuf_release(&r->coverage);
}

/*
 * The tree's vPMU code is compiled into a program of ours and run: both in
 * the sandbox (sandbox.c), which reads our sim sources and the trace file
 * and writes only the work directory.
 */
static int sandboxed(const struct sim_opts *o, struct child *c,
		     struct sim_result *r)
{
	struct sandbox sb = SANDBOX_INIT;
	char *src = sim_source_dir(), *trace = NULL;
	int ret;

	strvec_push(&sb.ro, src);
	if (o->objects && is_dir(o->objects))
		strvec_push(&sb.ro, o->objects);
	if (o->trace) {
		trace = realpath(o->trace, NULL);
		if (trace)
			strvec_push(&sb.ro, trace);
	}
	strvec_push(&sb.rw, o->work);
	ret = sandbox_child(c, &sb, &r->reason);
	r->cannot_run |= !!ret;
	sandbox_clear(&sb);
	free(trace);
	free(src);
	return ret;
}

static int compile(const struct sim_opts *o, struct strvec *args,
		   struct sim_result *r, const char *what)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	int ret;

	strvec_pushl(&c.args, "gcc", NULL);
	for (size_t i = 0; i < args->nr; i++)
		strvec_push(&c.args, args->v[i]);
	c.log = o->log;
	c.out = &out;
	c.timeout = o->timeout;
	if (sandboxed(o, &c, r)) {
		child_clear(&c);
		strbuf_release(&out);
		return -1;
	}
	ret = run_child(&c);
	if (ret) {
		r->cannot_run |= !!c.spawn_errno;
		if (c.spawn_errno == ENOENT)
			missing_tool(&r->reason, "gcc", "gcc");
		else
			strbuf_addf(&r->reason, "compiling %s failed (see the log)",
				    what);
	}
	child_clear(&c);
	strbuf_release(&out);
	return ret;
}

/*
 * Objects that do not change from run to run (our harness, a pristine or
 * baseline tree's unit) are kept in o->objects under a hash of what made
 * them: our sim sources and the compiler (sim_hash_toolchain()), the
 * flags and the text compiled.  A run that would compile the same
 * again links the kept object.  gcc writes each object into the work
 * directory, in the sandbox, and kverify copies it into the store; what
 * the trees' code runs sees the store read-only, so no run's code can
 * change the objects of another.
 */
struct sim_store {
	char *dir;		/* NULL: compile everything */
	uint64_t key;		/* the compiler and the sim sources */
};

static int hash_tool(uint64_t *h, const char *tool)
{
	char *path = path_lookup(tool), *real = path ? realpath(path, NULL) : NULL;
	int ret = real ? hash_file_fast(h, real) : -1;

	free(real);
	free(path);
	return ret;
}

static int hash_cc1(uint64_t *h)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	char *real = NULL;
	int ret = -1;

	strvec_pushl(&c.args, "gcc", "-print-prog-name=cc1", NULL);
	c.out = &out;
	c.timeout = 30;
	if (!run_child(&c)) {
		strbuf_trim_trailing(&out);
		real = out.len ? realpath(out.buf, NULL) : NULL;
		if (real)
			ret = hash_file_fast(h, real);
	}
	free(real);
	child_clear(&c);
	strbuf_release(&out);
	return ret;
}

int sim_hash_toolchain(uint64_t *h)
{
	char *src = sim_source_dir();
	struct dirent **names;
	int n = scandir(src, &names, NULL, alphasort), i, ret = n < 0;

	for (i = 0; i < n; i++) {
		char *p = xstrfmt("%s/%s", src, names[i]->d_name);

		/* By name, not path: another checkout's sim is the same. */
		if (names[i]->d_name[0] != '.' && is_file(p)) {
			*h = hash_bytes(*h, names[i]->d_name,
					strlen(names[i]->d_name) + 1);
			ret |= hash_file_fast(h, p);
		}
		free(p);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	free(src);
	return ret || hash_tool(h, "gcc") || hash_cc1(h) ||
	       hash_tool(h, "as") || hash_tool(h, "ld");
}

/* No store with --coverage: gcov wants each object beside its notes. */
static void store_init(const struct sim_opts *o, struct sim_store *st)
{
	uint64_t h = HASH_INIT;

	st->dir = NULL;
	if (!o->objects || o->coverage || sim_hash_toolchain(&h) ||
	    mkdir_p(o->objects))
		return;
	st->dir = xstrdup(o->objects);
	st->key = h;
}

/* The store's name for @text compiled with @flags, or NULL: no store. */
static char *store_name(const struct sim_store *st, const struct strvec *flags,
			const char *text, size_t len)
{
	uint64_t h;
	size_t i;

	if (!st->dir)
		return NULL;
	h = st->key;
	for (i = 0; i < flags->nr; i++)
		h = hash_bytes(h, flags->v[i], strlen(flags->v[i]) + 1);
	h = hash_bytes(h, text, len);
	return xstrfmt("%s/%016llx.o", st->dir, (unsigned long long)h);
}

/* Keep @obj, just compiled, as @kept; a failure only costs a compile. */
static void store_put(const char *obj, const char *kept)
{
	struct strbuf sb = STRBUF_INIT;

	if (!strbuf_read_file(&sb, obj, (size_t)64 << 20))
		write_file_atomic(kept, sb.buf, sb.len);
	strbuf_release(&sb);
}

/*
 * Compile @c (@text) with @flags into @obj in the work directory, or take
 * @kept from the store; *@linked: the object to link.
 */
static int compile_object(const struct sim_opts *o, const struct strvec *flags,
			  const char *c, const char *obj, const char *kept,
			  char **linked, struct sim_result *r)
{
	struct strvec args = STRVEC_INIT;
	size_t i;
	int ret;

	if (kept && is_file(kept)) {
		*linked = xstrdup(kept);
		return 0;
	}
	unlink(obj);
	for (i = 0; i < flags->nr; i++)
		strvec_push(&args, flags->v[i]);
	strvec_pushl(&args, "-c", c, "-o", obj, NULL);
	ret = compile(o, &args, r, c);
	strvec_clear(&args);
	if (ret)
		return ret;
	if (kept)
		store_put(obj, kept);
	*linked = xstrdup(obj);
	return 0;
}

/* How a tree's unit is compiled: -O1, for gcc's time on 3,000 lines. */
static void unit_flags(const struct sim_opts *o, const char *src,
		       struct strvec *flags)
{
	strvec_pushl(flags, "-std=gnu11", "-O1", "-pipe",
		     "-fno-strict-aliasing",
		     "-Werror=implicit-function-declaration",
		     "-Werror=implicit-int", "-Werror=incompatible-pointer-types",
		     "-Werror=int-conversion", NULL);
	strvec_pushf(flags, "-I%s", src);
	if (o->coverage)
		strvec_push(flags, "--coverage");
}

/*
 * How our sources (sim_ours[]) are compiled, and the program linked.
 * -flto: the harness is six files, and a trace's hot path crosses them
 * (ops.c into model.c for every counter of every emulated instruction);
 * linked as one, the program runs as fast as the single file it was.
 */
static void our_flags(const struct sim_opts *o, const char *src,
		      struct strvec *flags)
{
	strvec_pushl(flags, "-std=gnu11", "-O2", "-pipe", "-flto", "-Wall",
		     "-Wextra", "-Werror", NULL);
	strvec_pushf(flags, "-I%s", src);
	if (o->coverage)
		strvec_push(flags, "--coverage");
}

/*
 * A tree's generated unit, @unit, into @gen and WORK/@unit.c; -1 with the
 * reason in @r.
 */
static int gen_unit(const struct sim_opts *o, const char *tree,
		    enum sim_era era, const char *unit, const char *src,
		    struct strbuf *gen, struct sim_result *r)
{
	struct strbuf err = STRBUF_INIT;
	int gen_ret = sim_generate(tree, era, unit, src, o->debug, gen, &err);
	char *c = xstrfmt("%s/%s.c", o->work, unit);
	int ret = -1;

	if (gen_ret) {
		strbuf_addstr(&r->reason, err.buf);
		/* a definition the sim runs is missing: bad input, exit 2 */
		r->bad_input = gen_ret == -2;
	} else if (write_file(c, gen->buf, gen->len)) {
		strbuf_addf(&r->reason, "cannot write %s: %s", c,
			    strerror(errno));
	} else {
		ret = 0;
	}
	strbuf_release(&err);
	free(c);
	return ret;
}

/*
 * Compile a tree's unit @unit (its text @gen); @keep: through the store
 * (a pristine or baseline tree).
 */
static int build_unit(const struct sim_opts *o, const struct sim_store *st,
		      const char *unit, const char *src,
		      const struct strbuf *gen, int keep, char **linked,
		      struct sim_result *r)
{
	struct strvec flags = STRVEC_INIT;
	char *c = xstrfmt("%s/%s.c", o->work, unit);
	char *obj = xstrfmt("%s/%s.o", o->work, unit);
	char *kept = NULL;
	int ret;

	unit_flags(o, src, &flags);
	if (keep)
		kept = store_name(st, &flags, gen->buf, gen->len);
	ret = compile_object(o, &flags, c, obj, kept, linked, r);
	strvec_clear(&flags);
	free(kept);
	free(c);
	free(obj);
	return ret;
}

/*
 * Our sources of the program, each a .c of tools/sim/: the harness
 * (harness_int.h: its command line, the reference model, the ops, the
 * traces, the judging), the run the tree's code reports into, and the
 * simulated perf PMU.
 */
static const char *const sim_ours[] = {
	"harness", "model", "ops", "trace", "check", "world", "perf",
};

/* One of sim_ours[], through the store. */
static int build_ours(const struct sim_opts *o, const struct sim_store *st,
		      const char *src, const char *name, char **linked,
		      struct sim_result *r)
{
	struct strvec flags = STRVEC_INIT;
	char *c = xstrfmt("%s/%s.c", src, name);
	char *obj = xstrfmt("%s/%s.o", o->work, name);
	char *kept;
	int ret;

	our_flags(o, src, &flags);
	kept = store_name(st, &flags, name, strlen(name) + 1);
	ret = compile_object(o, &flags, c, obj, kept, linked, r);
	strvec_clear(&flags);
	free(kept);
	free(obj);
	free(c);
	return ret;
}

static void parse_output(struct sim_result *r)
{
	const char *p = r->output.buf;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *result;
		unsigned long t;
		double rate, reads;
		int nf = sscanf(p, "FIGURE tolerance=%lu reprograms_per_million=%lf reads_per_million=%lf",
				&t, &rate, &reads);

		if (skip_prefix(p, "RESULT ", &result)) {
			strbuf_reset(&r->reason);
			strbuf_add(&r->reason, result, len - (result - p));
			if (sscanf(p, "RESULT PASS %ld traces", &r->traces) != 1)
				r->traces = 0;
		} else if (nf >= 2) {
			strbuf_addf(&r->figures, "%sT=%lu:%.0f", r->figures.len ?
				    " " : "", t, rate);
			if (nf == 3)
				strbuf_addf(&r->reads, "%sT=%lu:%.0f",
					    r->reads.len ? " " : "", t, reads);
		}
		p += len + (e ? 1 : 0);
	}
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One function's coverage in a unit, from gcov's text summary. */
struct cov_fn {
	char name[96];
	double lines, taken;
	int nlines, nbranches;
};

/*
 * gcov -b -n of @unit in o->work: the tree's functions (the generated unit
 * names each "tree:NAME" with #line) into @fns, at most @max; their number.
 */
static int gcov_unit(const struct sim_opts *o, const char *unit,
		     struct cov_fn *fns, int max)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *p;
	int n = 0;

	strvec_pushl(&c.args, "gcov", "-b", "-n", "-o", o->work, NULL);
	strvec_pushf(&c.args, "%s/%s.c", o->work, unit);
	c.dir = o->work;
	c.out = &out;
	c.timeout = o->timeout;
	run_child(&c);
	for (p = out.buf; (p = strstr(p, "File 'tree:")) && n < max; ) {
		struct cov_fn *f = &fns[n];
		const char *e = strchr(p + 11, '\'');
		const char *next = strstr(p + 11, "File '");
		const char *l, *t;

		if (!e)
			break;
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%.*s", (int)(e - p - 11),
			 p + 11);
		l = strstr(e, "Lines executed:");
		t = strstr(e, "Taken at least once:");
		if (l && (!next || l < next))
			sscanf(l, "Lines executed:%lf%% of %d", &f->lines,
			       &f->nlines);
		if (t && (!next || t < next))
			sscanf(t, "Taken at least once:%lf%% of %d", &f->taken,
			       &f->nbranches);
		n++;
		p = e;
	}
	child_clear(&c);
	strbuf_release(&out);
	return n;
}

/* --coverage: the tree's vPMU functions reached, pristine and patched. */
static void coverage_table(const struct sim_opts *o, struct sim_result *r)
{
	static struct cov_fn p[512], q[512];
	int np = gcov_unit(o, "sim_tree_pristine", p, 512);
	int nq = gcov_unit(o, "sim_tree_patched", q, 512);
	char *path = xstrfmt("%s/coverage.txt", o->work);
	int i, j;

	strbuf_addstr(&r->coverage, "COVERAGE function: pristine lines, branches taken | patched lines, branches taken (gcov -b)\n");
	for (i = 0; i < nq; i++) {
		for (j = 0; j < np; j++)
			if (!strcmp(p[j].name, q[i].name))
				break;
		if (j < np)
			strbuf_addf(&r->coverage, "COVERAGE %s: %.0f%% of %d, %.0f%% of %d | ",
				    q[i].name, p[j].lines, p[j].nlines,
				    p[j].taken, p[j].nbranches);
		else
			strbuf_addf(&r->coverage, "COVERAGE %s: - | ",
				    q[i].name);
		strbuf_addf(&r->coverage, "%.0f%% of %d, %.0f%% of %d\n",
			    q[i].lines, q[i].nlines, q[i].taken,
			    q[i].nbranches);
	}
	for (j = 0; j < np; j++) {
		for (i = 0; i < nq; i++)
			if (!strcmp(p[j].name, q[i].name))
				break;
		if (i == nq)
			strbuf_addf(&r->coverage, "COVERAGE %s: %.0f%% of %d, %.0f%% of %d | -\n",
				    p[j].name, p[j].lines, p[j].nlines,
				    p[j].taken, p[j].nbranches);
	}
	if (!np && !nq)
		strbuf_addstr(&r->coverage, "COVERAGE none: gcov printed no function of the trees (is gcov installed?)\n");
	write_file(path, r->coverage.buf, r->coverage.len);
	free(path);
}

/*
 * Whether @tree has the parameter: then batching must be in effect
 * (invariant v); the pristine trees reprogram on every instruction.
 */
static int has_knob(const char *tree)
{
	struct strbuf b = STRBUF_INIT;
	char *p = xstrfmt("%s/arch/x86/kvm/pmu.c", tree);
	int ret = strbuf_read_file(&b, p, 4 << 20) >= 0 &&
		  strstr(b.buf, "emulated_counter_reprogram_tolerance");

	strbuf_release(&b);
	free(p);
	return ret;
}

/* unlink(), where a missing file is no failure */
static int unlink_if_any(const char *path)
{
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* The trees' units, by their index in build_program()'s arrays. */
static const char *const sim_units[] = {
	"sim_tree_pristine", "sim_tree_patched", "sim_tree_baseline",
};

/*
 * The program linked from the units @gen and ours, kept in the work
 * directory under a name that hashes what makes it: the compiler and our
 * sources (the store's key), the flags, and the units' text.  A check that
 * runs the same trees again in the same work directory (a replay, another
 * option) compiles and links nothing.  The trees' code runs with the work
 * directory writable, so a kept program is run only if its sha256 is the
 * one recorded in the store, which that code cannot write (kept_digest()).
 * NULL without a store (--coverage).
 */
static char *program_name(const struct sim_opts *o,
			  const struct sim_store *st, const char *src,
			  const struct strbuf *gen)
{
	struct strvec flags = STRVEC_INIT;
	uint64_t h;
	size_t i;

	if (!st->dir)
		return NULL;
	h = st->key;
	unit_flags(o, src, &flags);
	our_flags(o, src, &flags);
	for (i = 0; i < flags.nr; i++)
		h = hash_bytes(h, flags.v[i], strlen(flags.v[i]) + 1);
	strvec_clear(&flags);
	for (i = 0; i < ARRAY_SIZE(sim_units); i++) {
		h = hash_bytes(h, sim_units[i], strlen(sim_units[i]) + 1);
		h = hash_bytes(h, gen[i].buf, gen[i].len);
	}
	return xstrfmt("%s/sim-%016llx", o->work, (unsigned long long)h);
}

/* The sha256 of the regular file @path (not a link) into @sum; -1: none. */
static int file_sha256(const char *path, struct strbuf *sum)
{
	struct child c = CHILD_INIT;
	struct stat st;
	int ret = -1;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	strvec_pushl(&c.args, "sha256sum", "--", path, NULL);
	c.out = sum;
	if (!run_child(&c) && sum->len >= 64 &&
	    strspn(sum->buf, "0123456789abcdef") == 64) {
		strbuf_setlen(sum, 64);
		ret = 0;
	}
	child_clear(&c);
	return ret;
}

/*
 * The store's record of kept program @kept's sha256: written after the
 * link (@write), else compared with the program; 0: it matches, or it was
 * written.
 */
static int kept_digest(const struct sim_store *st, const char *kept,
		       int write)
{
	struct strbuf sum = STRBUF_INIT, rec = STRBUF_INIT;
	char *path = xstrfmt("%s/%s.sha256", st->dir, strrchr(kept, '/') + 1);
	int ret = file_sha256(kept, &sum);

	if (!ret && write)
		ret = write_file_atomic(path, sum.buf, sum.len);
	else if (!ret)
		ret = strbuf_read_file(&rec, path, 128) < 0 ||
		      strcmp(rec.buf, sum.buf) ? -1 : 0;
	strbuf_release(&sum);
	strbuf_release(&rec);
	free(path);
	return ret;
}

/* Link the units and ours (@objs) into @prog; see build_program(). */
static int link_program(const struct sim_opts *o, const struct sim_store *st,
			const char *src, const char *prog, char **objs,
			size_t n, int *forgot, struct sim_result *r)
{
	struct strvec flags = STRVEC_INIT;
	size_t i;
	int ret;

	our_flags(o, src, &flags);
	strvec_pushl(&flags, "-o", prog, NULL);
	for (i = 0; i < n; i++)
		if (objs[i])
			strvec_push(&flags, objs[i]);
	ret = compile(o, &flags, r, "the harness");
	for (i = 0; ret && st->dir && i < n; i++)
		if (objs[i] && path_under(objs[i], st->dir))
			*forgot |= !unlink(objs[i]);
	strvec_clear(&flags);
	return ret;
}

/*
 * The three units and ours, linked into @prog, or the program linked from
 * the same before (program_name()).  A kept object ld cannot read (cut
 * short, or no object at all) fails the link: *@forgot says that the kept
 * objects it linked were removed, to be compiled again.
 */
static int build_program(const struct sim_opts *o, const struct sim_store *st,
			 enum sim_era era, const char *src, const char *prog,
			 int *forgot, struct sim_result *r)
{
	char *objs[3 + ARRAY_SIZE(sim_ours)] = { NULL };	/* the units, ours */
	struct strbuf gen[ARRAY_SIZE(sim_units)] = {
		STRBUF_INIT, STRBUF_INIT, STRBUF_INIT
	};
	const char *trees[ARRAY_SIZE(sim_units)] = {
		o->pristine, o->patched, o->baseline
	};
	char *linked = NULL;
	size_t i;
	int ret = -1;

	*forgot = 0;
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		if (trees[i] &&
		    gen_unit(o, trees[i], era, sim_units[i], src, &gen[i], r))
			goto out;
	linked = program_name(o, st, src, gen);
	if (linked && !kept_digest(st, linked, 0) && !unlink_if_any(prog) &&
	    !link(linked, prog)) {
		ret = 0;
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		if (trees[i] && build_unit(o, st, sim_units[i], src, &gen[i],
					   i != 1, &objs[i], r))
			goto out;
	for (i = 0; i < ARRAY_SIZE(sim_ours); i++)
		if (build_ours(o, st, src, sim_ours[i], &objs[3 + i], r))
			goto out;
	/* prog may be another kept program's link: never write through it */
	if (unlink_if_any(prog)) {
		strbuf_addf(&r->reason, "cannot remove %s: %s", prog,
			    strerror(errno));
		goto out;
	}
	ret = link_program(o, st, src, prog, objs, ARRAY_SIZE(objs), forgot,
			   r);
	/* kept for the next run on the same trees; a failure costs a link */
	if (!ret && linked && !unlink_if_any(linked) &&
	    (link(prog, linked) || kept_digest(st, linked, 1)))
		unlink(linked);
out:
	for (i = 0; i < ARRAY_SIZE(objs); i++)
		free(objs[i]);
	for (i = 0; i < ARRAY_SIZE(sim_units); i++)
		strbuf_release(&gen[i]);
	free(linked);
	return ret;
}

/*
 * The harness's options but its time limits.  -1 when --fixes-only meets a
 * patched tree with the parameter: that series is not fixes only.
 */
static int harness_args(const struct sim_opts *o, enum sim_era pe,
			struct strvec *args, struct sim_result *r)
{
	int knob = has_knob(o->patched);

	if (o->fixes_only && knob) {
		strbuf_addf(&r->reason, "fixes only, but %s/arch/x86/kvm/pmu.c has emulated_counter_reprogram_tolerance",
			    o->patched);
		r->bad_input = 1;
		return -1;
	}
	strvec_push(args, "--seed");
	strvec_pushf(args, "%llu", o->seed);
	strvec_push(args, "--traces");
	strvec_pushf(args, "%ld", o->traces);
	if (o->tolerance >= 0) {
		strvec_push(args, "--tolerance");
		strvec_pushf(args, "%ld", o->tolerance);
	}
	if (o->min_period >= 0) {
		strvec_push(args, "--min-period");
		strvec_pushf(args, "%ld", o->min_period);
	}
	if (o->vendor)
		strvec_pushl(args, "--vendor", o->vendor, NULL);
	if (o->without)
		strvec_pushl(args, "--without", o->without, NULL);
	if (o->trace) {
		char *abs = abspath(o->trace);

		strvec_pushl(args, "--trace", abs, NULL);
		free(abs);
	}
	if (pe == SIM_ERA_SYNC)
		strvec_push(args, "--sync");
	if (pe == SIM_ERA_PREV)
		strvec_push(args, "--prev");
	if (knob)
		strvec_push(args, "--batching");
	if (o->fixes_only)
		strvec_push(args, "--fixes-only");
	return 0;
}

/* The harness's time limits: shrinking, and what is left of the budget. */
static void time_args(const struct sim_opts *o, double t0,
		      struct strvec *args)
{
	double budget = o->max_seconds;

	strvec_push(args, "--shrink-seconds");
	strvec_pushf(args, "%g", o->shrink_seconds);
	if (o->total_seconds > 0) {
		double left = o->total_seconds - (mono() - t0);

		if (left < 3)
			left = 3;
		if (budget <= 0 || left < budget)
			budget = left;
	}
	if (budget > 0) {
		strvec_push(args, "--max-seconds");
		strvec_pushf(args, "%.1f", budget);
	}
}

/* --coverage: the counts of an earlier run in the same --work go. */
static void forget_coverage(const struct sim_opts *o)
{
	static const char *const units[] = {
		"sim_tree_pristine", "sim_tree_patched", "sim_tree_baseline",
	};
	size_t u;

	for (u = 0; u < ARRAY_SIZE(units); u++) {
		char *gcda = xstrfmt("%s/%s.gcda", o->work, units[u]);

		unlink(gcda);
		free(gcda);
	}
}

/* Build the trees' units and the harness under o->work, then run it. */
/* The harness ended other than with its verdict (0 or 1): why, into @r. */
static int harness_failed(const struct sim_opts *o, const struct child *c,
			  struct sim_result *r)
{
	if (!c->spawn_errno && !c->timed_out && !c->interrupted &&
	    (c->status == 0 || c->status == 1))
		return 0;
	strbuf_reset(&r->reason);
	child_describe_failure(c, &r->reason);
	r->cannot_run |= !!c->spawn_errno;
	/* the harness refuses a trace it cannot read with exit 2 */
	r->bad_input = c->status == 2 && o->trace;
	return 1;
}

int sim_run(const struct sim_opts *o, struct sim_result *r)
{
	double t0 = mono();
	struct strbuf why = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *src = sim_source_dir(), *prog = NULL;
	struct sim_store st = { NULL, 0 };
	enum sim_era pe, qe;
	int ret = -1, forgot;

	r->passed = -1;
	pe = sim_detect_era(o->pristine, &why);
	qe = pe ? sim_detect_era(o->patched, &why) : pe;
	if (!pe || !qe) {
		strbuf_addstr(&r->reason, why.buf);
		r->bad_input = 1;
		goto out;
	}
	/*
	 * The pristine tree decides: a backport may well bring a later
	 * era's shape (a 6.1 batch with an emulated_counter, say).
	 */
	r->era = pe;
	if (mkdir_p(o->work)) {
		strbuf_addf(&r->reason, "cannot create %s: %s", o->work,
			    strerror(errno));
		r->cannot_run = 1;
		goto out;
	}
	if (o->baseline && sim_detect_era(o->baseline, &why) != pe) {
		strbuf_addf(&r->reason, "the baseline %s is not of the pristine tree's era (%s)%s%s",
			    o->baseline, sim_era_name(pe), why.len ? ": " : "",
			    why.buf);
		r->bad_input = 1;
		goto out;
	}
	store_init(o, &st);
	prog = xstrfmt("%s/sim", o->work);
	strvec_push(&c.args, prog);
	if (harness_args(o, pe, &c.args, r))
		goto out;
	if (build_program(o, &st, pe, src, prog, &forgot, r)) {
		if (!forgot)
			goto out;
		strbuf_reset(&r->reason);
		if (build_program(o, &st, pe, src, prog, &forgot, r))
			goto out;
	}

	time_args(o, t0, &c.args);
	c.log = o->log;
	c.out = &r->output;
	c.timeout = o->timeout;
	if (o->coverage)
		forget_coverage(o);
	if (sandboxed(o, &c, r))
		goto out;
	run_child(&c);
	parse_output(r);
	if (o->coverage)
		coverage_table(o, r);
	if (harness_failed(o, &c, r))
		goto out;
	r->passed = c.status == 0;
	if (!r->reason.len)
		strbuf_addstr(&r->reason, "the harness printed no RESULT line");
	ret = 0;
out:
	free(st.dir);
	child_clear(&c);
	strbuf_release(&why);
	free(prog);
	free(src);
	return ret;
}

static const char sim_usage_text[] =
	"usage: kverify sim --pristine DIR --patched DIR [--baseline DIR]\n"
	"                   [--seed N] [--traces N]\n"
	"                   [--tolerance T] [--vendor intel|amd] [--work DIR]\n"
	"                   [--shrink-seconds S] [--max-seconds S]\n"
	"                   [--without OP,...] [--min-period N]\n"
	"                   [--trace FILE] [--coverage] [--fixes-only]\n";

static const char *const sim_usage_str[] = {
	sim_usage_text,
	"\nThe sim step on any pair of trees: PASS (exit 0) or the shortest\n"
	"counterexample (exit 1, also when the patched code does not build or\n"
	"run to its end); exit 2 on bad input; 3 when a tool, the sandbox or\n"
	"the machine fails.  docs/sim.md.\n",
	NULL
};

__printf(1, 2) static int sim_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("kverify sim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n\n%s", sim_usage_text);
	return EXIT_USAGE;
}

/* An option of kverify sim that takes a number: its range and its field. */
struct number_option {
	const char *what;
	long long min, max;
	unsigned long long *u;
	long *l;
	double *d;
};

/* --seed N and the other numbers (opt->value, a struct number_option). */
static int parse_number(const struct option *opt, const char *arg)
{
	const struct number_option *n = opt->value;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 0);
	if (errno || !*arg || *end || v < n->min || v > n->max)
		return error("sim: --%s wants %s, not '%s'", opt->long_name,
			     n->what, arg);
	if (n->u)
		*n->u = v;
	else if (n->l)
		*n->l = v;
	else
		*n->d = v;
	return 0;
}

static int parse_vendor(const struct option *opt, const char *arg)
{
	if (strcmp(arg, "intel") && strcmp(arg, "amd"))
		return error("sim: --vendor is intel or amd, not '%s'", arg);
	*(const char **)opt->value = arg;
	return 0;
}

/* OPT_NUMBER(name, argh, help, what, min, max, .field = &where) */
#define OPT_NUMBER(l, a, h, ...) \
	{ .type = OPTION_CALLBACK, .long_name = (l), .argh = (a), \
	  .value = &(struct number_option){ __VA_ARGS__ }, .help = (h), \
	  .callback = parse_number }

/* kverify sim's options, into sim_args, which cmd_sim() then takes. */
static struct sim_opts sim_args;
static const struct option sim_options[] = {
	OPT_STRING(0, "pristine", &sim_args.pristine, "DIR",
		   "the tree as it is, without the series"),
	OPT_STRING(0, "patched", &sim_args.patched, "DIR",
		   "the tree with the whole series"),
	OPT_STRING(0, "baseline", &sim_args.baseline, "DIR",
		   "pristine plus the series' Fixes: patches\n"
		   "(default: the pristine tree)"),
	OPT_STRING(0, "work", &sim_args.work, "DIR",
		   "keep the generated files there (default: a\n"
		   "scratch directory in the cache, removed after)"),
	OPT_STRING(0, "without", &sim_args.without, "OP,...",
		   "leave these op types out of the traces (names\n"
		   "as traces print them); kvm-run: every KVM_RUN\n"
		   "returns from vcpu_run(), none by the tree's\n"
		   "early returns"),
	OPT_STRING(0, "trace", &sim_args.trace, "FILE",
		   "run the one trace of FILE (a counterexample)"),
	OPT_CALLBACK(0, "vendor", &sim_args.vendor, "intel|amd",
		     "one vendor's PMU only", parse_vendor),
	OPT_NUMBER("seed", "N", "the traces' seed (default 1)",
		   "a number", 0, 1LL << 62, .u = &sim_args.seed),
	OPT_NUMBER("traces", "N", "how many traces (default 20000)",
		   "a positive number", 1, 100000000, .l = &sim_args.traces),
	OPT_NUMBER("tolerance", "T",
		   "every trace and its runtime changes at T\n"
		   "(default: drawn from the sim's set per trace)",
		   "0 to 4294967295", 0, 4294967295LL,
		   .l = &sim_args.tolerance),
	OPT_NUMBER("min-period", "N",
		   "perf's minimum period for every trace\n"
		   "(default: 0, 32 or 128, drawn per trace)",
		   "0 to 4096", 0, 4096, .l = &sim_args.min_period),
	OPT_NUMBER("shrink-seconds", "S",
		   "time to shrink a counterexample (default 8)",
		   "0 to 3600", 0, 3600, .d = &sim_args.shrink_seconds),
	OPT_NUMBER("max-seconds", "S", "start no trace after S seconds",
		   "0 to 86400", 0, 86400, .d = &sim_args.max_seconds),
	OPT_BOOL(0, "coverage", &sim_args.coverage,
		 "gcov's lines and branches of the tree's functions"),
	OPT_BOOL(0, "fixes-only", &sim_args.fixes_only,
		 "the patched tree is pristine plus fixes, no\n"
		 "parameter; no tree excuses a spurious overflow\n"
		 "of it (invariant iv)"),
	OPT_END()
};

/* kverify sim: the step on any pristine/patched pair of trees. */
int cmd_sim(int argc, char **argv, const struct options *opt)
{
	struct sim_opts o = {
		.seed = 1, .traces = SIM_TRACES, .tolerance = -1,
		.min_period = -1, .shrink_seconds = 8, .timeout = 600, .debug = opt->sim_debug,
	};
	struct sim_result r = SIM_RESULT_INIT;
	char *work = NULL, *objects;
	int ret;

	sim_args = o;
	argc = parse_options(argc, (const char **)argv, sim_options,
			     sim_usage_str, 0);
	o = sim_args;
	if (argc == PARSE_OPT_HELP)
		return EXIT_PASS;
	if (argc < 0)
		return EXIT_USAGE;
	if (argc)
		return sim_usage("unexpected argument '%s': every value follows its option",
				 argv[0]);
	if (!o.pristine || !o.patched)
		return sim_usage("%s", "--pristine and --patched are required");
	if (!is_dir(o.pristine) || !is_dir(o.patched))
		return sim_usage("no such directory: %s",
				 is_dir(o.pristine) ? o.patched : o.pristine);
	if (o.baseline && !is_dir(o.baseline))
		return sim_usage("no such directory: %s", o.baseline);
	if (o.trace && !is_file(o.trace))
		return sim_usage("--trace: no such file: %s", o.trace);
	if (!o.work) {
		work = xstrfmt("%s/sim/standalone-%ld", opt->cache,
			       (long)getpid());
		o.work = work;
	}
	objects = xstrfmt("%s/%s", opt->cache, SIM_OBJECTS);
	o.objects = objects;
	ret = sim_run(&o, &r);
	fputs(r.output.buf, stdout);
	fputs(r.coverage.buf, stdout);
	if (ret) {
		fprintf(stderr, "kverify sim: %s\n", r.reason.buf);
		ret = r.bad_input ? EXIT_USAGE : r.cannot_run ? EXIT_TOOL : EXIT_FAIL;
	} else {
		printf("kverify sim: %s (%s era): %s\n",
		       r.passed ? "PASS" : "FAIL", sim_era_name(r.era),
		       r.reason.buf);
		ret = r.passed ? 0 : 1;
	}
	if (work)
		rm_rf(work);
	free(work);
	free(objects);
	sim_result_clear(&r);
	return ret;
}
