// SPDX-License-Identifier: GPL-2.0
/*
 * A variant of fixes only, for the 6.2-6.7 (prev_counter) shape: the
 * semantic patch writes what patches 1, 2 and 4 of series/ become there in
 * one run, and each hunk of its diff goes to the patch it adapts, so that
 * each generated patch is series/'s, by name and subject, diffable with
 * it one by one.  Hunk line numbers are those of the tree with the
 * earlier patches applied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backport_fixes.h"
#include "lib/strbuf.h"
#include "lib/usage.h"

/* Which patch a hunk of FILE belongs to: the first rule whose marker it has. */
struct hunk_rule {
	const char *file, *marker, *patch;
};

static const struct hunk_rule prev_rules[] = {
	{ "arch/x86/kvm/x86.c", NULL, "0004" },
	{ "arch/x86/kvm/pmu.h", "kvm_pmu_sync_to_userspace", "0004" },
	{ "arch/x86/kvm/pmu.h", NULL, "0001" },
	{ "arch/x86/kvm/pmu.c", "kvm_pmu_sync_to_userspace", "0004" },
	{ "arch/x86/kvm/pmu.c", "__kvm_perf_overflow", "0002" },
};

/* What each patch's backport note says differs from upstream. */
static const struct fix_patch prev_patches[] = {
	{ "0001",
	  "in this era pmc_write_counter() and\n"
	  "  pmc_update_sample_period() are inlines of pmu.h, and the vendors'\n"
	  "  set_msr handlers call the second right after the first\n"
	  "  (vmx/pmu_intel.c, svm/pmu.c): pmc_update_sample_period() takes the\n"
	  "  period from pmc_read_counter(), which is the written value there\n"
	  "  (the perf event excludes the host and counts nothing in between),\n"
	  "  instead of from a new parameter, and\n"
	  "  kvm_pmu_request_counter_reprogram() moves above it." },
	{ "0002",
	  "in this era the emulated overflow is\n"
	  "  pmc->counter < pmc->prev_counter, tested after the goto\n"
	  "  reprogram_complete of a disabled or disallowed counter; the test\n"
	  "  moves before it.  The snapshot is dropped once tested: a failed\n"
	  "  pmc_reprogram_counter() returns before reprogram_complete, which\n"
	  "  alone clears it, and the retry would signal the overflow again,\n"
	  "  even for a counter disabled since; upstream's pmc_pause_counter()\n"
	  "  consumes the emulated count instead." },
	{ "0004",
	  "kvm_pmu_sync_to_userspace() goes after\n"
	  "  kvm_pmu_handle_event(): this era has no\n"
	  "  kvm_pmu_check_rdpmc_early()." },
};

const struct fix_set prev_counter_fixes = {
	"prev_counter", prev_rules, ARRAY_SIZE(prev_rules),
	prev_patches, ARRAY_SIZE(prev_patches),
};

struct hunk {
	const char *file, *text;	/* text: after the @@ line's numbers */
	char *body;			/* its lines */
	long a, b, c, d;
	int patch;			/* index in the set's patches */
};

static int hunk_patch(const struct fix_set *set, const char *file,
		      const char *body, size_t len)
{
	char *text = xstrfmt("%.*s", (int)len, body);
	int ret = -1;
	size_t i, j;

	for (i = 0; i < set->nr_rules && ret < 0; i++) {
		const struct hunk_rule *r = &set->rules[i];

		if (strcmp(r->file, file) ||
		    (r->marker && !strstr(text, r->marker)))
			continue;
		for (j = 0; j < set->nr_patches; j++)
			if (!strcmp(set->patches[j].number, r->patch))
				ret = j;
	}
	free(text);
	return ret;
}

static void free_hunks(struct hunk *h, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(h[i].body);
	free(h);
}

/* The hunks of @diff (diff -u output with git headers), in order. */
static int parse_hunks(const struct fix_set *set, char *diff,
		       struct hunk **out, size_t *nr)
{
	struct hunk *h = NULL;
	const char *file = NULL;
	char *p = diff;
	size_t n = 0;

	while (*p) {
		char *eol = strchr(p, '\n'), *end;

		if (!eol)
			break;
		*eol = '\0';
		if (starts_with(p, "+++ b/")) {
			file = p + 6;
		} else if (starts_with(p, "@@ -") && file) {
			h = xrealloc(h, ++n * sizeof(*h));
			if (sscanf(p, "@@ -%ld,%ld +%ld,%ld @@", &h[n - 1].a,
				   &h[n - 1].b, &h[n - 1].c, &h[n - 1].d) != 4) {
				error("the semantic patch's diff has a hunk header kverify cannot read: %s", p);
				h[n - 1].body = NULL;
				free_hunks(h, n);
				return -1;
			}
			h[n - 1].file = file;
			h[n - 1].text = strstr(p + 4, "@@") + 2;
			end = eol + 1;
			while (*end == ' ' || *end == '+' || *end == '-')
				end += strcspn(end, "\n") + !!end[strcspn(end, "\n")];
			h[n - 1].body = xstrfmt("%.*s", (int)(end - eol - 1),
						eol + 1);
			h[n - 1].patch = hunk_patch(set, file, eol + 1, end - eol - 1);
			if (h[n - 1].patch < 0) {
				error("a hunk of %s the semantic patch wrote belongs to no patch of the %s fixes: %s",
				      file, set->shape, p);
				free_hunks(h, n);
				return -1;
			}
		}
		p = eol + 1;
	}
	*out = h;
	*nr = n;
	return 0;
}

/* Patch @k's part of the hunks, renumbered for the tree with 0..k-1. */
static void patch_diff(const struct hunk *h, size_t nr, int k,
		       struct strbuf *out)
{
	const char *file = NULL;
	size_t i, j;

	for (i = 0; i < nr; i++) {
		long before = 0, same = 0;

		if (h[i].patch != k)
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(h[j].file, h[i].file) && h[j].patch < k)
				before += h[j].d - h[j].b;
			else if (!strcmp(h[j].file, h[i].file) && h[j].patch == k)
				same += h[j].d - h[j].b;
		if (!file || strcmp(file, h[i].file)) {
			file = h[i].file;
			strbuf_addf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n",
				    file, file, file, file);
		}
		strbuf_addf(out, "@@ -%ld,%ld +%ld,%ld @@%s\n%s", h[i].a + before,
			    h[i].b, h[i].a + before + same, h[i].d, h[i].text,
			    h[i].body);
	}
}

int fixes_split(const struct fix_set *set, const char *diff,
		struct strbuf *per_patch)
{
	char *copy = xstrdup(diff);
	struct hunk *h = NULL;
	size_t nr = 0, k;

	if (parse_hunks(set, copy, &h, &nr)) {
		free(copy);
		return -1;
	}
	for (k = 0; k < set->nr_patches; k++)
		patch_diff(h, nr, k, &per_patch[k]);
	free_hunks(h, nr);
	free(copy);
	for (k = 0; k < set->nr_patches; k++)
		if (!per_patch[k].len) {
			error("the semantic patch wrote no hunk of patch %s of the %s fixes",
			      set->patches[k].number, set->shape);
			return -1;
		}
	return 0;
}
