// SPDX-License-Identifier: GPL-2.0
/*
 * The sim's units: the functions the emulated-count path goes through,
 * cut out of a tree's arch/x86/kvm/ at run time (extract.c) and written
 * into a generated unit after our stub headers (tools/sim/kernel.h); and
 * which era of that code a tree is.  sim.c builds and runs them.
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

#include "core/sim.h"
#include "lib/fsutil.h"
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
