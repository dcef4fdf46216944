// SPDX-License-Identifier: GPL-2.0
/// Add kvm.emulated_counter_reprogram_tolerance and batch the counter
/// reprograms kvm_pmu_incr_counter() requests for each emulated instruction,
/// with the fixes the batching relies on (the v5 series, patches 1-5).
///
/// Knows the shapes kvm_pmu_incr_counter() took upstream:
///   mediated          7.x: emulated path inside !kvm_vcpu_has_mediated_pmu()
///   emulated_counter  6.8-6.18: pmc->emulated_counter++ + deferred reprogram
///   prev_counter      6.2-6.7: pmc->prev_counter + deferred reprogram
///   sync              5.19-6.1: synchronous reprogram_counter()
/// and prints exactly one outcome line:
///   APPLIED <shape> | ALREADY | NOT-APPLICABLE <reason> | UNKNOWN [...]
/// UNKNOWN (the function exists in a shape no rule knows, or in a known
/// shape whose surroundings a required hunk did not find) exits non-zero.
/// The sync shape is NOT-APPLICABLE: its increment reprograms synchronously,
/// in the emulation path, and batching it needs the KVM_REQ_PMU deferral
/// 6.2 added (docs/backports.md, "6.1").
///
/// Run on arch/x86/kvm/pmu.c, arch/x86/kvm/pmu.h,
/// arch/x86/include/asm/kvm_host.h and arch/x86/kvm/x86.c in one spatch
/// invocation: spatch applies each rule to all of them together, so the
/// shape found in pmu.c decides what pmu.h and x86.c get.  No variant
/// changes kvm_host.h any more; it is read for the shape's types.
///
/// What each shape gets:
///  mediated, emulated_counter (what series/ and backports/7.2, 6.12 write):
///   1 pmc_update_sample_period() takes the written value, which
///     pmc_write_counter() passes, and re-periods the event from it, or
///     requests a reprogram when perf rejects that period;
///   2 reprogram_counter() signals the emulated overflow before its early
///     return for a disabled or disallowed counter;
///   3 pmc_emulated_overflow_pending() before pmc_write_counter(), which
///     signals that overflow before the write drops the emulated count;
///   4 kvm_pmu_sync_to_userspace() before kvm_pmu_check_rdpmc_early(), its
///     prototype after kvm_pmu_handle_event()'s in pmu.h, and its call at
///     the out: label of kvm_arch_vcpu_ioctl_run() in x86.c;
///   5 the parameter, static, after module_param(enable_pmu) (7.x) or after
///     the EXPORT_SYMBOL_GPL() of kvm_pmu_eventsel or else kvm_pmu_cap, with
///     #include <linux/moduleparam.h> after <linux/sort.h> (6.x);
///     pmc_stop_counter() zeroes the emulated count it folded;
///     kvm_pmu_sync_to_userspace() folds every pending batch;
///     pmc_defer_emulated_reprogram() before kvm_pmu_incr_counter(), which
///     requests the reprogram only when it says the batch cannot wait.
///  prev_counter (6.2-6.7: the fixes only, patches 1, 2 and 4 adapted, which
///   `make backport` writes as three patches; no knob): see the comment
///   above the prev_counter rules.
/// The driver's cocci step checks the output byte for byte on 7.3, 7.2 and
/// 6.12 only.  On another kernel of a shape, APPLIED means that every hunk
/// the shape requires found its anchor, not that the result builds.
///
/// Code with comments or blank lines inside a function is added as one
/// identifier made by a python rule (its text is printed verbatim, spatch
/// adds the final ';'): spatch's pretty printer otherwise joins an if with
/// its body when a comment precedes it and indents blank lines.  Whole new
/// functions are '+' code with --smpl-spacing, their bodies such identifiers.
///
// Confidence: High
// Requires: 1.1.1
// Options: --no-includes --include-headers --smpl-spacing
#spatch --no-includes --include-headers --smpl-spacing

@initialize:python@
@@
import sys

SHAPE = None
ALREADY = False
HAS_FN = False
# Hunks a shape requires, and those that matched: a known shape whose
# surroundings differ is reported, never half applied silently.
DONE = set()
REQUIRED = {
	"mediated": ["param", "stop", "period", "write_period", "pending",
		     "write", "reprogram", "sync", "sync_decl", "x86.c",
		     "defer", "incr"],
	"emulated_counter": ["include", "param", "stop", "period",
			     "write_period", "pending", "write", "reprogram",
			     "sync", "sync_decl", "x86.c", "defer", "incr"],
	"prev_counter": ["request", "period", "reprogram", "sync", "sync_decl",
			 "x86.c"],
}

def done(hunk):
	DONE.add(hunk)

def text(s):
	# Statements as in the source: the first line without its indentation
	# (spatch indents it), no final ';' (spatch adds it).
	s = s.strip("\n")
	assert s.endswith(";")
	return s.lstrip("\t")[:-1]

STOP_FOLD = """
		/* pmc_read_counter() includes the emulated events. */
		pmc->counter = pmc_read_counter(pmc);
		pmc->emulated_counter = 0;
"""

WRITE_CHECK = """
	/* The overflow happened before the write, which drops the events. */
	if (pmc->emulated_counter && pmc_emulated_overflow_pending(pmc))
		__kvm_perf_overflow(pmc, false);
"""

MEDIATED_WRITE_BRANCH = """
	if (kvm_vcpu_has_mediated_pmu(pmc->vcpu)) {
		pmc->counter = val & pmc_bitmask(pmc);
		return;
	}
"""


PERIOD_CALL = """
	/*
	 * perf keeps the old period if it rejects this one, e.g. below the
	 * host's limit_period: the reprogram re-creates the event, or ends
	 * with none, so that no stale period is left.
	 */
	if (perf_event_period(pmc->perf_event, get_sample_period(pmc, val)))
		kvm_pmu_request_counter_reprogram(pmc);
"""

REPROGRAM_CHECK = """
	%s = pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed, signal their overflow even if it no longer is.
	 */
	if (%s)
		__kvm_perf_overflow(pmc, false);
"""

PENDING_BODY = """
	u64 counter = pmc_read_counter(pmc);

	return counter < ((counter - pmc->emulated_counter) & pmc_bitmask(pmc));
"""

SYNC_BODY = """
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);
	struct kvm_pmc *pmc;
	int i;

	/* Fold the batched emulated events too, see kvm_pmu_incr_counter(). */
	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		if (pmc->emulated_counter)
			kvm_pmu_request_counter_reprogram(pmc);
	}

	if (kvm_check_request(KVM_REQ_PMU, vcpu))
		kvm_pmu_handle_event(vcpu);
	if (kvm_check_request(KVM_REQ_PMI, vcpu))
		kvm_pmu_deliver_pmi(vcpu);
"""

DEFER_BODY = """
	u64 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 half = pmc_bitmask(pmc) >> 1;
	u64 to_wrap;

	/*
	 * handle_invalid_guest_state() emulates up to 130 instructions before
	 * the next VM-entry folds the batch: leave room for them.
	 */
	if (pmc->emulated_counter > min(tolerance, half > 130 ? half - 130 : 0))
		return false;

	/*
	 * A running event's period is the distance to the wrap from the value
	 * the counter had at its last reprogram or write; pmc->counter is
	 * offset by the event's count after a write.
	 */
	if (pmc->perf_event && !pmc->is_paused)
		to_wrap = pmc->perf_event->attr.sample_period;
	else
		to_wrap = get_sample_period(pmc, pmc->counter);

	return pmc->emulated_counter < to_wrap;
"""

DEFER_CALL = """
		if (!pmc_defer_emulated_reprogram(pmc))
			kvm_pmu_request_counter_reprogram(pmc);
"""

# 6.2-6.7 (prev_counter): the fixes only, patches 1, 2 and 4 adapted (no
# knob: its fold needs pmc->emulated_counter, see the rules below).
PREV_PERIOD_CALL = """
	/*
	 * The value the guest wrote: pmc_write_counter() has just offset
	 * pmc->counter by the event's count.  perf keeps the old period if it
	 * rejects this one, e.g. below the host's limit_period: the reprogram
	 * re-creates the event, or ends with none, so that no stale period is
	 * left.
	 */
	if (perf_event_period(pmc->perf_event,
			      get_sample_period(pmc, pmc_read_counter(pmc))))
		%(request)s(pmc);
"""

PREV_REPROGRAM_CHECK = """
	pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed, signal their overflow even if it no longer is.  Once: a
	 * failed pmc_reprogram_counter() below keeps the snapshot for a retry.
	 */
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;
"""

PREV_SYNC_BODY = """
	if (kvm_check_request(KVM_REQ_PMU, vcpu))
		kvm_pmu_handle_event(vcpu);
	if (kvm_check_request(KVM_REQ_PMI, vcpu))
		kvm_pmu_deliver_pmi(vcpu);
"""

@already@
identifier t = {emulated_counter_reprogram_tolerance,
		pmc_defer_emulated_reprogram, pmc_defer_reprogram};
@@
 static void kvm_pmu_incr_counter(...)
 {
 	<+... t ...+>
 }

@already_param@
declarer name module_param;
@@
 module_param(emulated_counter_reprogram_tolerance, ...);

@script:python depends on already || already_param@
@@
ALREADY = True

@has_fn@
@@
 static void kvm_pmu_incr_counter(...)
 {
 	...
 }

@script:python depends on has_fn@
@@
HAS_FN = True

// ---------------------------------------------------------------- shapes

@mediated depends on !already && !already_param@
identifier vcpu;
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
 	...
 	if (!kvm_vcpu_has_mediated_pmu(vcpu)) {
 		pmc->emulated_counter++;
 		kvm_pmu_request_counter_reprogram(pmc);
 		return;
 	}
 	...
 }

@script:python depends on mediated@
@@
SHAPE = "mediated"

@emulated_counter depends on !already && !already_param && !mediated@
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
 	pmc->emulated_counter++;
 	kvm_pmu_request_counter_reprogram(pmc);
 }

@script:python depends on emulated_counter@
@@
SHAPE = "emulated_counter"

// 6.2 and 6.3 spelled the request helper without its second 'r'.
@prev_counter depends on !already && !already_param && !mediated &&
		       !emulated_counter@
identifier request = {kvm_pmu_request_counter_reprogram,
		      kvm_pmu_request_counter_reprogam};
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
 	pmc->prev_counter = pmc->counter;
 	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
 	request(pmc);
 }

@script:python depends on prev_counter@
@@
SHAPE = "prev_counter"

// 6.2-6.7 gets the fixes only (below): a tree that has them is done.
@prev_fixed depends on prev_counter@
@@
 void kvm_pmu_sync_to_userspace(...)
 {
 	...
 }

@script:python depends on prev_fixed@
@@
ALREADY = True

// Recognized to say why it is not applicable; nothing is changed.
@sync depends on !already && !already_param && !mediated &&
	       !emulated_counter && !prev_counter@
identifier prev;
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
 	u64 prev;
 	prev = pmc->counter;
 	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
 	reprogram_counter(pmc);
 	if (pmc->counter < prev)
 		__kvm_perf_overflow(pmc, false);
 }

@script:python depends on sync@
@@
SHAPE = "sync"

// ------------------------------------------- the parameter and its include

@param_mediated depends on mediated@
declarer name module_param;
@@
 module_param(enable_pmu, ...);
+
+/*
+ * How many emulated instructions may accumulate on a counter of the
+ * perf-based vPMU before KVM reprograms it; 0 reprograms on every one.
+ */
+static unsigned int __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@script:python depends on param_mediated@
@@
done("param")

@include_pre depends on emulated_counter@
@@
 #include <linux/sort.h>
+#include <linux/moduleparam.h>

@script:python depends on include_pre@
@@
done("include")

// After the last exported variable before the PEBS tables: kvm_pmu_eventsel
// (6.9+), else kvm_pmu_cap.
@param_eventsel depends on emulated_counter@
declarer name EXPORT_SYMBOL_GPL;
@@
 EXPORT_SYMBOL_GPL(kvm_pmu_eventsel);
+
+/*
+ * How many emulated instructions may accumulate on a counter of the
+ * perf-based vPMU before KVM reprograms it; 0 reprograms on every one.
+ */
+static unsigned int __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@param_cap depends on emulated_counter && !param_eventsel@
declarer name EXPORT_SYMBOL_GPL;
@@
 EXPORT_SYMBOL_GPL(kvm_pmu_cap);
+
+/*
+ * How many emulated instructions may accumulate on a counter of the
+ * perf-based vPMU before KVM reprograms it; 0 reprograms on every one.
+ */
+static unsigned int __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@script:python depends on param_eventsel || param_cap@
@@
done("param")

// ------------------------------ mediated and emulated_counter: the helpers

@script:python em_text depends on mediated || emulated_counter@
write_check; write_mediated_check; stop_fold; period_call;
pending_body; defer_body; sync_body; defer_call;
@@
coccinelle.write_check = cocci.make_ident(text(WRITE_CHECK))
coccinelle.write_mediated_check = cocci.make_ident(
	text(MEDIATED_WRITE_BRANCH + WRITE_CHECK))
coccinelle.stop_fold = cocci.make_ident(text(STOP_FOLD))
coccinelle.period_call = cocci.make_ident(text(PERIOD_CALL))
coccinelle.pending_body = cocci.make_ident(text(PENDING_BODY))
coccinelle.defer_body = cocci.make_ident(text(DEFER_BODY))
coccinelle.sync_body = cocci.make_ident(text(SYNC_BODY))
if SHAPE == "mediated":
	coccinelle.defer_call = cocci.make_ident(text(DEFER_CALL))
else:
	coccinelle.defer_call = cocci.make_ident(
		text(DEFER_CALL.replace("\n\t", "\n")))

// 5: pmc_read_counter() includes the emulated count, which is folded with it.
@stop depends on mediated || emulated_counter exists@
identifier em_text.stop_fold;
@@
 pmc_stop_counter(...)
 {
 	...
-	pmc->counter = pmc_read_counter(pmc);
+	stop_fold;
 	...
 }

@script:python depends on stop@
@@
done("stop")

// 1: the period from the value the guest wrote.
@period depends on mediated || emulated_counter@
identifier em_text.period_call;
@@
-pmc_update_sample_period(struct kvm_pmc *pmc)
+pmc_update_sample_period(struct kvm_pmc *pmc, u64 val)
 {
 	...
-	perf_event_period(pmc->perf_event,
-			  get_sample_period(pmc, pmc->counter));
+	period_call;
 }

@script:python depends on period@
@@
done("period")

// 1: the call passes the written value.
@write_period depends on period@
@@
 void pmc_write_counter(...)
 {
 	...
-	pmc_update_sample_period(pmc);
+	pmc_update_sample_period(pmc, val);
 }

@script:python depends on write_period@
@@
done("write_period")

// 3
@pending depends on mediated || emulated_counter@
identifier em_text.pending_body;
typedef bool;
@@
+/* Whether the emulated events not yet folded into the counter wrapped it. */
+static bool pmc_emulated_overflow_pending(struct kvm_pmc *pmc)
+{
+	pending_body;
+}
+
 void pmc_write_counter(...)
 {
 	...
 }

@script:python depends on pending@
@@
done("pending")

// 7.x: the mediated branch is re-emitted, verbatim, with the check after it,
// so that the check sits between the blank line after the branch and the
// comment of the drop (spatch puts code added before a statement after the
// statement's comment, and indents a blank '+' line).
@write_mediated depends on mediated@
identifier em_text.write_mediated_check;
@@
 void pmc_write_counter(...)
 {
-	if (kvm_vcpu_has_mediated_pmu(pmc->vcpu)) {
-		pmc->counter = val & pmc_bitmask(pmc);
-		return;
-	}
+	write_mediated_check;
 	...
 }

@write_emulated depends on emulated_counter@
identifier em_text.write_check;
@@
 void pmc_write_counter(...)
 {
+	write_check;
+
 	... when != kvm_vcpu_has_mediated_pmu(...)
 	pmc->emulated_counter = 0;
 	...
 }

@script:python depends on write_mediated || write_emulated@
@@
done("write")

// 2: the emulated overflow, signalled before the early return.
@reprogram_site depends on mediated || emulated_counter@
identifier e;
@@
 e = pmc_pause_counter(pmc);
 ...
-if (e)
-	__kvm_perf_overflow(pmc, false);

@script:python rp_text@
e << reprogram_site.e;
check;
@@
coccinelle.check = cocci.make_ident(text(REPROGRAM_CHECK % (e, e)))

@reprogram depends on reprogram_site@
identifier reprogram_site.e, rp_text.check;
@@
-e = pmc_pause_counter(pmc);
+check;

@script:python depends on reprogram@
@@
done("reprogram")

// 4 and 5: before KVM_RUN returns.
@sync_fn depends on mediated || emulated_counter@
identifier em_text.sync_body;
@@
+/*
+ * Service pending PMU requests before KVM_RUN returns: vcpu->requests is not
+ * part of the state userspace saves, and userspace may change the filter or
+ * the PMU MSRs before the next VM-entry.
+ */
+void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu)
+{
+	sync_body;
+}
+
 int kvm_pmu_check_rdpmc_early(...)
 {
 	...
 }

@script:python depends on sync_fn@
@@
done("sync")

// Removed and added back: spatch adds nothing after a context prototype.
@sync_decl depends on mediated || emulated_counter ||
		   (prev_counter && !prev_fixed)@
@@
-void kvm_pmu_handle_event(struct kvm_vcpu *vcpu);
+void kvm_pmu_handle_event(struct kvm_vcpu *vcpu);
+void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu);

@script:python depends on sync_decl@
@@
done("sync_decl")

@sync_call depends on mediated || emulated_counter ||
		   (prev_counter && !prev_fixed)@
identifier vcpu, out;
@@
 int kvm_arch_vcpu_ioctl_run(struct kvm_vcpu *vcpu)
 {
 	...
 out:
+	kvm_pmu_sync_to_userspace(vcpu);
 	kvm_put_guest_fpu(vcpu);
 	...
 }

@script:python depends on sync_call@
@@
done("x86.c")

// 5
@defer depends on mediated || emulated_counter@
identifier em_text.defer_body;
typedef bool;
@@
+/*
+ * Whether the reprogram that folds the emulated events may wait for more: at
+ * most "tolerance" of them and half the counter's range, so that the fold
+ * sees the wrap, and not once they wrapped the counter on their own.
+ */
+static bool pmc_defer_emulated_reprogram(struct kvm_pmc *pmc)
+{
+	defer_body;
+}
+
 static void kvm_pmu_incr_counter(...)
 {
 	...
 }

@script:python depends on defer@
@@
done("defer")

@incr_mediated depends on mediated@
identifier em_text.defer_call;
identifier vcpu;
@@
 static void kvm_pmu_incr_counter(...)
 {
 	...
 	if (!kvm_vcpu_has_mediated_pmu(vcpu)) {
 		pmc->emulated_counter++;
-		kvm_pmu_request_counter_reprogram(pmc);
+		defer_call;
 		return;
 	}
 	...
 }

@script:python depends on incr_mediated@
@@
done("incr")

@incr_emulated depends on emulated_counter@
identifier em_text.defer_call;
@@
 static void kvm_pmu_incr_counter(...)
 {
 	pmc->emulated_counter++;
-	kvm_pmu_request_counter_reprogram(pmc);
+	defer_call;
 }

@script:python depends on incr_emulated@
@@
done("incr")

// ----------------------------------------------- prev_counter (6.2-6.7)
//
// The fixes only: what patches 1, 2 and 4 of the series become in that era
// (`make backport` writes them as three patches named as in series/;
// docs/backports.md, "6.2 - 6.7").  No knob: v5's batching counts the
// batch in pmc->emulated_counter, which 6.8 added (fd89499a5151); in this
// era an emulated increment goes straight into pmc->counter and overwrites
// pmc->prev_counter, the only snapshot the fold compares with.  Patch 3's
// bug is fd89499a5151's (a write zeroes the emulated count): not here.
//  1 pmu.h: pmc_update_sample_period(), which the vendors' set_msr
//    handlers call right after the inline pmc_write_counter(), takes the
//    period from pmc_read_counter(), the value the guest wrote, and
//    requests a reprogram when perf rejects it; the request helper moves
//    above it;
//  2 reprogram_counter() signals the emulated overflow right after
//    pmc_pause_counter(), before the early return (goto
//    reprogram_complete), and drops the snapshot, which a failed
//    pmc_reprogram_counter() would otherwise leave for its retry;
//  4 kvm_pmu_sync_to_userspace() after kvm_pmu_handle_event(), its
//    prototype, and its call at the out: label of kvm_arch_vcpu_ioctl_run().

@script:python pv_text depends on prev_counter && !prev_fixed@
request << prev_counter.request;
period_call; check; sync_body;
@@
R = {"request": str(request)}
coccinelle.period_call = cocci.make_ident(text(PREV_PERIOD_CALL % R))
coccinelle.check = cocci.make_ident(text(PREV_REPROGRAM_CHECK))
coccinelle.sync_body = cocci.make_ident(text(PREV_SYNC_BODY))

// 1: the request helper, an inline of pmu.h after pmc_update_sample_period()
// in that era, moves above it.
@prev_request depends on prev_counter && !prev_fixed@
identifier prev_counter.request;
@@
-static inline void request(struct kvm_pmc *pmc)
-{
-	set_bit(pmc->idx, pmc_to_pmu(pmc)->reprogram_pmi);
-	kvm_make_request(KVM_REQ_PMU, pmc->vcpu);
-}

@script:python depends on prev_request@
@@
done("request")

@prev_period depends on prev_request@
identifier prev_counter.request;
identifier pv_text.period_call;
@@
+static inline void request(struct kvm_pmc *pmc)
+{
+	set_bit(pmc->idx, pmc_to_pmu(pmc)->reprogram_pmi);
+	kvm_make_request(KVM_REQ_PMU, pmc->vcpu);
+}
+
 static inline void pmc_update_sample_period(struct kvm_pmc *pmc)
 {
 	...
-	perf_event_period(pmc->perf_event,
-			  get_sample_period(pmc, pmc->counter));
+	period_call;
 }

@script:python depends on prev_period@
@@
done("period")

// 2
@prev_reprogram depends on prev_counter && !prev_fixed@
identifier pv_text.check;
@@
 reprogram_counter(...)
 {
 	...
-	pmc_pause_counter(pmc);
+	check;
 	...
-	if (pmc->counter < pmc->prev_counter)
-		__kvm_perf_overflow(pmc, false);
 	...
 }

@script:python depends on prev_reprogram@
@@
done("reprogram")

// 4
@prev_sync depends on prev_counter && !prev_fixed@
identifier pv_text.sync_body;
@@
 void kvm_pmu_handle_event(...)
 {
 	...
 }
+/*
+ * Service pending PMU requests before KVM_RUN returns: vcpu->requests is not
+ * part of the state userspace saves, and userspace may change the filter or
+ * the PMU MSRs before the next VM-entry.
+ */
+void kvm_pmu_sync_to_userspace(struct kvm_vcpu *vcpu)
+{
+	sync_body;
+}

@script:python depends on prev_sync@
@@
done("sync")

@finalize:python@
@@
if ALREADY:
	print("ALREADY")
elif SHAPE == "sync":
	print("NOT-APPLICABLE sync shape (5.19-6.1): kvm_pmu_incr_counter() "
	      "reprograms synchronously in the emulation path; batching needs "
	      "the KVM_REQ_PMU deferral of 6.2 (docs/backports.md)")
elif SHAPE:
	missing = [h for h in REQUIRED[SHAPE] if h not in DONE]
	if missing:
		print("UNKNOWN %s shape, but no match for: %s" %
		      (SHAPE, ", ".join(missing)))
		sys.stdout.flush()
		sys.exit(3)
	print("APPLIED " + SHAPE)
elif not HAS_FN:
	print("NOT-APPLICABLE no per-emulated-instruction PMU accounting: "
	      "kvm_pmu_incr_counter() is absent (added in 5.19)")
else:
	print("UNKNOWN")
	sys.stdout.flush()
	sys.exit(3)
