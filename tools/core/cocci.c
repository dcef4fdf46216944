// SPDX-License-Identifier: GPL-2.0
/* The semantic patch on copies of a tree's files, and its outcome line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cocci.h"
#include "lib/fsutil.h"
#include "lib/run.h"
#include "lib/sandbox.h"

/*
 * In one spatch invocation, which applies each rule to all of them: the
 * shape found in pmu.c decides what pmu.h, kvm_host.h and x86.c get (x86.c:
 * the call of kvm_pmu_sync_to_userspace() when KVM_RUN returns).  Every C
 * file a variant changes outside tools/testing/ is here (step_cocci.c fails
 * a series that changes another one).
 */
const char *const cocci_inputs[] = {
	"arch/x86/kvm/pmu.c", "arch/x86/kvm/pmu.h",
	"arch/x86/include/asm/kvm_host.h", "arch/x86/kvm/x86.c",
};

const size_t nr_cocci_inputs = ARRAY_SIZE(cocci_inputs);

static int stage(const char *tree, const char *work, int keep_pristine,
		 struct child *c)
{
	size_t i;
	int n = 0;

	for (i = 0; i < nr_cocci_inputs; i++) {
		char *from = xstrfmt("%s/%s", tree, cocci_inputs[i]);
		char *a = xstrfmt("%s/a/%s", work, cocci_inputs[i]);
		char *b = xstrfmt("%s/b/%s", work, cocci_inputs[i]);

		if (is_file(from) && !copy_file(from, b) &&
		    (!keep_pristine || !copy_file(from, a))) {
			strvec_push(&c->args, b);
			n++;
		}
		free(from);
		free(a);
		free(b);
	}
	return n;
}

static char *outcome_line(const char *out)
{
	static const char *const words[] = {
		"APPLIED ", "ALREADY", "NOT-APPLICABLE", "UNKNOWN",
	};
	struct line l;
	size_t i;

	for_each_line(l, out)
		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (starts_with(l.s, words[i]))
				return xstrfmt("%.*s", (int)l.len, l.s);
	return NULL;
}

int cocci_run(const char *repo, const char *tree, const char *work,
	      int keep_pristine, const char *log, unsigned int timeout,
	      char **outcome, struct strbuf *why)
{
	struct sandbox sb = SANDBOX_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *smpl = xstrfmt("%s/%s", repo, COCCI_SMPL);
	char *tmp = xstrfmt("%s/tmp", work);
	int ret = -1;

	/*
	 * spatch does not heed $TMPDIR: its output files go to /tmp, and
	 * some stay there (the sync shape's, a partial shape's), unless
	 * --temp-files names a directory.
	 */
	*outcome = NULL;
	strvec_pushl(&c.args, "spatch", "--sp-file", smpl, "--no-includes",
		     "--include-headers", "--in-place", "--very-quiet",
		     "--temp-files", tmp, NULL);
	if (mkdir_p(tmp)) {
		strbuf_addf(why, "cannot create %s: %s", tmp, strerror(errno));
		ret = COCCI_CANNOT_RUN;
		goto out;
	}
	if (!stage(tree, work, keep_pristine, &c)) {
		strbuf_addf(why, "%s has no arch/x86/kvm/pmu.c", tree);
		goto out;
	}
	c.out = &out;
	c.log = log;
	c.timeout = timeout;
	/* spatch parses the tree's C: it reads the rules and writes @work. */
	strvec_push(&sb.ro, smpl);
	strvec_push(&sb.rw, work);
	if (sandbox_child(&c, &sb, why)) {
		ret = COCCI_CANNOT_RUN;
		goto out;
	}
	run_child(&c);
	*outcome = outcome_line(out.buf);
	if (c.spawn_errno || c.timed_out || c.interrupted)
		child_describe_failure(&c, why);
	else if (!*outcome)
		strbuf_addf(why, "spatch printed no outcome line (status %d)",
			    c.status);
	if (*outcome)
		ret = 0;
	else if (c.spawn_errno)
		ret = COCCI_CANNOT_RUN;
out:
	rm_rf(tmp);
	sandbox_clear(&sb);
	strbuf_release(&out);
	child_clear(&c);
	free(smpl);
	free(tmp);
	return ret;
}
