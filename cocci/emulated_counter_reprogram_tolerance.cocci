// SPDX-License-Identifier: GPL-2.0
/// Add kvm.emulated_counter_reprogram_tolerance and batch the counter
/// reprograms kvm_pmu_incr_counter() requests for each emulated instruction.
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
///
/// Run on arch/x86/kvm/pmu.c, arch/x86/kvm/pmu.h and
/// arch/x86/include/asm/kvm_host.h in one spatch invocation: spatch applies
/// each rule to all of them together, so the shape found in pmu.c decides
/// what pmu.h (6.1; 6.7 and 6.6.y for prev_counter) and kvm_host.h (7.x,
/// 6.8+) get.  No variant changes x86.c or x86.h any more: the parameter is
/// static in pmu.c.
///
/// What each shape gets (pmu.c unless said otherwise):
///  mediated, emulated_counter (what series/ and backports/7.2, 6.12 write):
///   - the parameter, static, after module_param(enable_pmu) (7.x) or after
///     the EXPORT_SYMBOL_GPL() of kvm_pmu_eventsel or else kvm_pmu_cap, with
///     #include <linux/moduleparam.h> after <linux/sort.h> (6.x);
///   - pmc_emulated_overflow_pending() before pmc_write_counter(), which
///     signals that overflow before the write drops the emulated count;
///   - reprogram_counter(): the emulated overflow is signalled before the
///     early return for a disabled or disallowed counter;
///   - kvm_pmu_fold_emulated_counters() before kvm_pmu_get_msr(), called on
///     a host-initiated read of the global status (7.x: through
///     __kvm_pmu_reprogram_counters(); 6.x: reprogram bits and
///     kvm_pmu_handle_event());
///   - pmc_defer_emulated_reprogram() before kvm_pmu_incr_counter(), which
///     requests the reprogram only when it says the batch cannot wait;
///   - pmc->period_stale: a field of struct kvm_pmc after "bool intr;" in
///     kvm_host.h (6.x: inside #ifndef __GENKSYMS__, kABI), set by
///     pmc_write_counter() while the perf event runs, cleared by
///     pmc_pause_counter(); no batching while it is set.
///  sync (backports/6.1): moduleparam include, the parameter after
///   EXPORT_SYMBOL_GPL(kvm_pmu_cap), pmc_batched_overflow(),
///   reprogram_counter() split into __reprogram_counter(pmc, batched_overflow)
///   and a wrapper, the exported kvm_pmu_fold_batched_overflow(),
///   pmc_defer_reprogram(); in pmu.h the prototype and the call in the
///   inline pmc_write_counter().
///  prev_counter (6.2-6.7: no curated variant, `make backport` generates one):
///   see the comment above the prev_counter rules.
/// The driver's cocci step checks the output byte for byte on 7.3, 7.2, 6.12
/// and 6.1 only.  On another kernel of a shape, APPLIED means that every
/// hunk the shape requires found its anchor, not that the result builds
/// (e.g. kvm_for_each_pmc() and pmc_write_counter() in pmu.c are 6.12's).
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
	"mediated": ["param", "pending", "write", "reprogram", "fold", "status",
		     "defer", "incr", "pause", "write_stale", "kvm_host.h"],
	"emulated_counter": ["include", "param", "pending", "write",
			     "reprogram", "fold", "status", "defer", "incr",
			     "pause", "write_stale", "kvm_host.h"],
	"prev_counter": ["include", "param", "reprogram", "incr"],
	"sync": ["include", "param", "batched", "split", "split_overflow", "wrapper",
		 "defer", "incr", "pmu.h"],
}

def done(hunk):
	DONE.add(hunk)

def text(s):
	# Statements as in the source: the first line without its indentation
	# (spatch indents it), no final ';' (spatch adds it).
	s = s.strip("\n")
	assert s.endswith(";")
	return s.lstrip("\t")[:-1]

WRITE_CHECK = """
	/*
	 * Emulated events whose reprogram was batched may have wrapped the
	 * counter before this write: signal that overflow, which happened
	 * first, before the write drops them.
	 */
	if (pmc->emulated_counter && pmc_emulated_overflow_pending(pmc))
		__kvm_perf_overflow(pmc, false);
"""

MEDIATED_WRITE_BRANCH = """
	if (kvm_vcpu_has_mediated_pmu(pmc->vcpu)) {
		pmc->counter = val & pmc_bitmask(pmc);
		return;
	}
"""

STALE_FIELD = """
	intr;
	/*
	 * Set by a counter write while the perf_event runs: the sample period
	 * is computed from a base that leaves out what the event had counted,
	 * so it does not end at the counter's wrap until the next reprogram.
	 */
	bool period_stale;
"""

STALE_FIELD_GENKSYMS = """
	intr;
#ifndef __GENKSYMS__
	/*
	 * Set by a counter write while the perf_event runs: the sample period
	 * is computed from a base that leaves out what the event had counted,
	 * so it does not end at the counter's wrap until the next reprogram.
	 * In the padding before counter, hidden from genksyms (kABI).
	 */
	bool period_stale;
"""

REPROGRAM_CHECK = """
	%s = pmc_pause_counter(pmc);

	/*
	 * The emulated events were counted while the counter was enabled and
	 * allowed; with a batched reprogram, the counter may have been
	 * disabled or filtered since.  Signal their overflow regardless.
	 */
	if (%s)
		__kvm_perf_overflow(pmc, false);
"""

STATUS_FOLD = """
		/*
		 * Userspace saves the status: first fold the emulated events
		 * whose reprogram was batched, so that an overflow they caused
		 * is in the saved value.
		 */
		if (msr_info->host_initiated)
			kvm_pmu_fold_emulated_counters(%s);
"""

PENDING_BODY = """
	u64 counter = pmc_read_counter(pmc);

	return counter < ((counter - pmc->emulated_counter) & pmc_bitmask(pmc));
"""

FOLD_BODY_MEDIATED = """
	struct kvm_pmc *pmc;
	u64 pending = 0;
	int i;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx)
		if (pmc->emulated_counter)
			pending |= BIT_ULL(pmc->idx);

	__kvm_pmu_reprogram_counters(pmu, pending, false);
"""

FOLD_BODY_EMULATED = """
	struct kvm_pmu *pmu = vcpu_to_pmu(vcpu);
	struct kvm_pmc *pmc;
	bool pending = false;
	int i;

	kvm_for_each_pmc(pmu, pmc, i, pmu->all_valid_pmc_idx) {
		if (pmc->emulated_counter) {
			set_bit(pmc->idx, pmu->reprogram_pmi);
			pending = true;
		}
	}

	if (pending)
		kvm_pmu_handle_event(vcpu);
"""

DEFER_BODY = """
	u64 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 to_wrap = -pmc->counter & pmc_bitmask(pmc);

	if (pmc->period_stale)
		return false;

	if (pmc->emulated_counter > min(tolerance, pmc_bitmask(pmc) >> 1))
		return false;

	return !to_wrap || pmc->emulated_counter < to_wrap;
"""

DEFER_CALL = """
		if (!pmc_defer_emulated_reprogram(pmc))
			kvm_pmu_request_counter_reprogram(pmc);
"""

# 6.1 (sync)
BATCHED_BODY = """
	return READ_ONCE(emulated_counter_reprogram_tolerance) &&
	       pmc->perf_event && !pmc->is_paused &&
	       pmc_read_counter(pmc) < pmc->counter;
"""

SPLIT_CHECK = """
	pmc_pause_counter(pmc);

	/*
	 * The events were counted while the counter was enabled; it may be
	 * disabled by now.  Ignored if perf signalled the overflow already.
	 */
	if (batched_overflow)
		__kvm_perf_overflow(pmc, false);
"""

WRAPPER_BODY = """
	__reprogram_counter(pmc, pmc_batched_overflow(pmc));
"""

FOLD_BATCHED_BODY = """
	if (pmc_batched_overflow(pmc))
		reprogram_counter(pmc);
"""

DEFER_SYNC_BODY = """
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch;

	if (!tolerance)
		return false;

	batch = BIT_ULL(ilog2((u64)tolerance + 1));
	if (!(pmc->counter & (batch - 1)))
		return false;

	return !pmc_batched_overflow(pmc);
"""

SYNC_TAIL = """
	if (pmc_defer_reprogram(pmc))
		return;

	/* A wrap since the last reprogram lands below %s. */
	__reprogram_counter(pmc, false);
"""

# 6.2-6.7 (prev_counter)
PREV_REPROGRAM_CHECK = """
	pmc_pause_counter(pmc);

	/*
	 * The emulated increments were counted while the counter was enabled
	 * and allowed; with a batched reprogram, the counter may have been
	 * disabled or filtered since: signal their overflow regardless.  Then
	 * drop the snapshot, so that a failed pmc_reprogram_counter() below,
	 * which leaves the reprogram pending, leaves no stale snapshot for its
	 * retry to compare against.
	 */
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;
"""

PREV_STATUS_FOLD = """
		/*
		 * Userspace saves the status: first run the reprograms that
		 * emulated increments requested, so that an overflow they
		 * caused is in the saved value.
		 */
		if (msr_info->host_initiated)
			kvm_pmu_handle_event(vcpu);
"""

PREV_WRITE_BODY = """
	if (pmc->counter < pmc->prev_counter)
		__kvm_perf_overflow(pmc, false);
	pmc->prev_counter = 0;
"""

PREV_INCR_BODY = """
	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
	u64 batch = tolerance ?
		    BIT_ULL(ilog2(min_t(u64, (u64)tolerance + 1,
					(pmc_bitmask(pmc) >> 1) + 1))) : 1;
	u64 prev_counter = pmc->counter;

	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);

	/*
	 * Batch reprograms: request one when the counter reaches a multiple of
	 * the largest power of two not above tolerance + 1 nor half the
	 * counter's range.  The counter moves by one per emulated instruction,
	 * so a reprogram is requested at least every tolerance + 1 of them, and
	 * always when it wraps to 0: an overflow that emulated instructions
	 * cause on their own is signalled at the next VM-entry, as today.
	 */
	if (pmc->counter & (batch - 1))
		return;

	/*
	 * reprogram_counter() signals an overflow if the counter went below
	 * prev_counter, then drops it.  While a request is pending keep the
	 * oldest snapshot, or a wrap earlier in the batch would be lost.
	 */
	if (batch == 1 || !pmc->prev_counter)
		pmc->prev_counter = prev_counter;
	%s(pmc);
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
typedef uint;
@@
 module_param(enable_pmu, ...);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
+ * emulated count into the counter.  Writable at runtime, read with
+ * READ_ONCE() in the emulation path.
+ */
+static uint __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@script:python depends on param_mediated@
@@
done("param")

@include_pre depends on emulated_counter || prev_counter || sync@
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
typedef uint;
@@
 EXPORT_SYMBOL_GPL(kvm_pmu_eventsel);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
+ * emulated count into the counter.  Writable at runtime, read with
+ * READ_ONCE() in the emulation path.
+ */
+static uint __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@param_cap depends on emulated_counter && !param_eventsel@
declarer name EXPORT_SYMBOL_GPL;
typedef uint;
@@
 EXPORT_SYMBOL_GPL(kvm_pmu_cap);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
+ * emulated count into the counter.  Writable at runtime, read with
+ * READ_ONCE() in the emulation path.
+ */
+static uint __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

// 6.1 and 6.2-6.7: the reprogram folds the perf event's count.
@param_sync depends on sync || prev_counter@
declarer name EXPORT_SYMBOL_GPL;
typedef uint;
@@
 EXPORT_SYMBOL_GPL(kvm_pmu_cap);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
+ * perf event's count into the counter.  Writable at runtime, read with
+ * READ_ONCE().
+ */
+static uint __read_mostly emulated_counter_reprogram_tolerance;
+module_param(emulated_counter_reprogram_tolerance, uint, 0644);

@script:python depends on param_eventsel || param_cap || param_sync@
@@
done("param")

// ------------------------------ mediated and emulated_counter: the helpers

@script:python em_text depends on mediated || emulated_counter@
write_check; write_mediated_check; pending_body; defer_body; fold_body;
status_fold; defer_call;
@@
coccinelle.write_check = cocci.make_ident(text(WRITE_CHECK))
coccinelle.write_mediated_check = cocci.make_ident(
	text(MEDIATED_WRITE_BRANCH + WRITE_CHECK))
coccinelle.pending_body = cocci.make_ident(text(PENDING_BODY))
coccinelle.defer_body = cocci.make_ident(text(DEFER_BODY))
if SHAPE == "mediated":
	coccinelle.fold_body = cocci.make_ident(text(FOLD_BODY_MEDIATED))
	coccinelle.status_fold = cocci.make_ident(text(STATUS_FOLD % "pmu"))
	coccinelle.defer_call = cocci.make_ident(text(DEFER_CALL))
else:
	coccinelle.fold_body = cocci.make_ident(text(FOLD_BODY_EMULATED))
	coccinelle.status_fold = cocci.make_ident(text(STATUS_FOLD % "vcpu"))
	coccinelle.defer_call = cocci.make_ident(
		text(DEFER_CALL.replace("\n\t", "\n")))

@pending depends on mediated || emulated_counter@
identifier em_text.pending_body;
typedef bool;
@@
+/*
+ * Whether the emulated events not yet folded into the counter made it wrap:
+ * the same test pmc_pause_counter() makes when it folds them.
+ */
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

// pmc->period_stale (struct kvm_pmc, kvm_host.h): set by a counter write
// while the perf event runs, cleared by the next fold; no batching meanwhile.
@pause depends on mediated || emulated_counter@
@@
 pmc_pause_counter(...)
 {
 	...
 	pmc->is_paused = true;
+	pmc->period_stale = false;
 	...
 }

@script:python depends on pause@
@@
done("pause")

@write_stale depends on mediated || emulated_counter@
@@
 void pmc_write_counter(...)
 {
 	...
 	pmc_update_sample_period(pmc);
+	pmc->period_stale = pmc->perf_event && !pmc->is_paused;
 }

@script:python depends on write_stale@
@@
done("write_stale")

@script:python fd_text depends on mediated || emulated_counter@
stale_field;
@@
coccinelle.stale_field = cocci.make_ident(
	text(STALE_FIELD_GENKSYMS if SHAPE == "emulated_counter" else
	     STALE_FIELD))

// The field after "bool intr;", re-emitted with it: a field added after
// another goes after the comment of the next one otherwise.  6.x hides it
// from genksyms (kABI: it sits in the padding before counter).
@stale_field_decl depends on mediated@
identifier fd_text.stale_field;
typedef bool;
@@
 struct kvm_pmc {
 	...
-	bool intr;
+	bool stale_field;
 	...
 };

// The identifier ends where spatch adds the ';', so the #endif is its own
// line.
@stale_field_genksyms depends on emulated_counter@
identifier fd_text.stale_field;
typedef bool;
@@
 struct kvm_pmc {
 	...
-	bool intr;
+	bool stale_field;
+#endif
 	...
 };

@script:python depends on stale_field_decl || stale_field_genksyms@
@@
done("kvm_host.h")

// The emulated overflow: signalled before the early return.
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

@fold_mediated depends on mediated@
identifier em_text.fold_body;
@@
+static void kvm_pmu_fold_emulated_counters(struct kvm_pmu *pmu)
+{
+	fold_body;
+}
+
 int kvm_pmu_get_msr(...)
 {
 	...
 }

@fold_emulated depends on emulated_counter@
identifier em_text.fold_body;
@@
+static void kvm_pmu_fold_emulated_counters(struct kvm_vcpu *vcpu)
+{
+	fold_body;
+}
+
 int kvm_pmu_get_msr(...)
 {
 	...
 }

@script:python depends on fold_mediated || fold_emulated@
@@
done("fold")

@status depends on mediated || emulated_counter@
identifier em_text.status_fold;
@@
 int kvm_pmu_get_msr(...)
 {
 	<...
+	status_fold;
 	msr_info->data = pmu->global_status;
 	...>
 }

@script:python depends on status@
@@
done("status")

@defer depends on mediated || emulated_counter@
identifier em_text.defer_body;
typedef bool;
@@
+/*
+ * Whether the reprogram that folds a counter's emulated events may wait for
+ * more of them (emulated_counter_reprogram_tolerance): only while at most
+ * "tolerance" are pending, at most half the counter's range so that the fold
+ * always sees a wrap, and only while they cannot have wrapped the counter on
+ * their own, so that the overflow they cause is signalled at once.  Not
+ * after a counter write until the next fold: perf's stale period would let
+ * counted events carry the counter past its wrap unseen.
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

// pmu.h: 6.1's (and 6.6.y's, 6.7's) pmc_write_counter() is an inline there.
@h_site@
position p;
@@
 static inline void pmc_write_counter@p(...)
 {
 	...
 }

// ----------------------------------------------- prev_counter (6.2-6.7)
//
// No curated variant and no tree of that era here: `make backport` generates
// the variant from these rules, and tests/cocci/prev_counter (our fixture,
// written after 6.6) is all they are checked on.  What the variant does:
//  - the parameter after EXPORT_SYMBOL_GPL(kvm_pmu_cap), moduleparam include;
//  - kvm_pmu_incr_counter() requests the reprogram only when the counter
//    reaches a multiple of a power of two not above tolerance + 1 nor half
//    the counter's range (the width cap), and always at its wrap to 0, so an
//    overflow the emulated increments cause on their own is signalled at the
//    next VM-entry, as today; a request keeps the oldest pending snapshot in
//    pmc->prev_counter (tolerance 0: today's, the latest);
//  - reprogram_counter() compares against the snapshot right after
//    pmc_pause_counter(), before the early returns (goto
//    reprogram_complete) for a disabled or filtered counter, and drops the
//    snapshot there: that era's reprogram_counter() returns without clearing
//    prev_counter when pmc_reprogram_counter() fails (the retry comes with
//    the next request), so a snapshot kept by "keep the oldest" would be
//    compared again, stale, by the retry: a second PMI for the same wrap, or
//    a wrong one after the counter moved on;
//  - where kvm_pmu_get_msr() in pmu.c reads the global status (6.5+): a
//    host-initiated read runs the pending reprograms (kvm_pmu_handle_event())
//    first; 6.2-6.4 read it in the vendor modules, left as they are;
//  - where pmu.h has the inline pmc_write_counter() (6.7, 6.6.y): it calls
//    the new exported kvm_pmu_write_pending_overflow() first, which signals
//    the overflow a pending request holds and drops its snapshot, which the
//    write would otherwise compare against; elsewhere the writes are in the
//    vendor modules, left as they are.
// What it cannot prove without a tree, and does not do:
//  - that era's code around these anchors (the hunks are checked, a missing
//    required one makes the outcome UNKNOWN, but not compiled or run);
//  - skipped increments are in pmc->counter but not in the perf event's
//    sample period, so a wrap that they and hardware-counted events cause
//    together is signalled by perf up to "batch" events late; a reprogram
//    or a write that folds the counter before that (a guest WRMSR to the
//    event selector or global control) loses it: that era has no
//    emulated_counter for the fold to compare against (6.8+), and 6.1's
//    pmc_read_counter() < pmc->counter test would signal a second PMI there
//    for every overflow perf has signalled already (6.2+ moved that
//    deduplication out of __kvm_perf_overflow()).  Nor is pmc->period_stale
//    carried (7.x and 6.8+: no batching after a counter write until the
//    next fold, a struct kvm_pmc field): after a write the perf event's
//    period is stale in that era too, the same late-or-lost wrap.  A tree
//    of that era needs a curated variant before it gets more than
//    tolerance 0.

@script:python pv_text depends on prev_counter@
request << prev_counter.request;
check; status_fold; write_body; incr_body;
@@
coccinelle.check = cocci.make_ident(text(PREV_REPROGRAM_CHECK))
coccinelle.status_fold = cocci.make_ident(text(PREV_STATUS_FOLD))
coccinelle.write_body = cocci.make_ident(text(PREV_WRITE_BODY))
coccinelle.incr_body = cocci.make_ident(text(PREV_INCR_BODY % request))

@prev_reprogram depends on prev_counter@
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

@prev_status depends on prev_counter@
identifier pv_text.status_fold;
@@
 int kvm_pmu_get_msr(...)
 {
 	<...
+	status_fold;
 	msr_info->data = pmu->global_status;
 	...>
 }

@prev_write depends on prev_counter && h_site@
declarer name EXPORT_SYMBOL_GPL;
identifier pv_text.write_body;
@@
+/*
+ * Before a write of the counter: signal the overflow a pending reprogram
+ * request holds, which the write would drop, and drop its snapshot, which
+ * would be compared with the written value.
+ */
+void kvm_pmu_write_pending_overflow(struct kvm_pmc *pmc)
+{
+	write_body;
+}
+EXPORT_SYMBOL_GPL(kvm_pmu_write_pending_overflow);
+
 void kvm_pmu_handle_event(...)
 {
 	...
 }

@script:python depends on prev_write@
@@
done("write")

@prev_incr depends on prev_counter@
identifier pv_text.incr_body;
identifier prev_counter.request;
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
-	pmc->prev_counter = pmc->counter;
-	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
-	request(pmc);
+	incr_body;
 }

@script:python depends on prev_incr@
@@
done("incr")

// ------------------------------------------------------- sync (5.19-6.1)

@script:python sy_text depends on sync@
prev << sync.prev;
batched_body; split_check; wrapper_body; fold_batched_body; defer_body;
incr_tail;
@@
coccinelle.batched_body = cocci.make_ident(text(BATCHED_BODY))
coccinelle.split_check = cocci.make_ident(text(SPLIT_CHECK))
coccinelle.wrapper_body = cocci.make_ident(text(WRAPPER_BODY))
coccinelle.fold_batched_body = cocci.make_ident(text(FOLD_BATCHED_BODY))
coccinelle.defer_body = cocci.make_ident(text(DEFER_SYNC_BODY))
coccinelle.incr_tail = cocci.make_ident(text(SYNC_TAIL % prev))

@batched depends on sync@
identifier sy_text.batched_body;
typedef bool;
@@
+/*
+ * Batched emulated increments are in pmc->counter, but not in the sample
+ * period of its perf event, which was set at the last reprogram: the counter
+ * can pass its wrap, emulated and counted events together, before perf
+ * signals an overflow.  Whether it has: its value is below pmc->counter,
+ * which lacks only what perf counted since the last reprogram.
+ */
+static bool pmc_batched_overflow(struct kvm_pmc *pmc)
+{
+	batched_body;
+}
+
 void reprogram_counter(...)
 {
 	...
 }

// The header in a disjunction: spatch would otherwise also rewrite the
// prototype pmu.h keeps for the wrapper.
@split depends on batched@
typedef bool;
@@
(
-void reprogram_counter(struct kvm_pmc *pmc)
+static void __reprogram_counter(struct kvm_pmc *pmc, bool batched_overflow)
 {
 	...
 }
)

@script:python depends on batched@
@@
done("batched")

@script:python depends on split@
@@
done("split")

@split_overflow depends on split@
identifier sy_text.split_check;
@@
 __reprogram_counter(...)
 {
 	...
-	pmc_pause_counter(pmc);
+	split_check;
 	...
 }

@script:python depends on split_overflow@
@@
done("split_overflow")

@wrapper_export depends on split@
declarer name EXPORT_SYMBOL_GPL;
@@
-EXPORT_SYMBOL_GPL(reprogram_counter);

// Before kvm_pmu_handle_event(), right after __reprogram_counter() once its
// export is gone: spatch puts a blank line between an added function and a
// context line after it, so both exports are added with the functions.
@wrapper depends on wrapper_export@
declarer name EXPORT_SYMBOL_GPL;
identifier sy_text.wrapper_body, sy_text.fold_batched_body;
@@
+void reprogram_counter(struct kvm_pmc *pmc)
+{
+	wrapper_body;
+}
+EXPORT_SYMBOL_GPL(reprogram_counter);
+
+/* Before a write of the counter drops an overflow batching left pending. */
+void kvm_pmu_fold_batched_overflow(struct kvm_pmc *pmc)
+{
+	fold_batched_body;
+}
+EXPORT_SYMBOL_GPL(kvm_pmu_fold_batched_overflow);
+
 void kvm_pmu_handle_event(...)
 {
 	...
 }

@script:python depends on wrapper@
@@
done("wrapper")

@defer_sync depends on sync@
identifier sy_text.defer_body;
typedef bool;
@@
+/*
+ * Whether the reprogram of an emulated increment may wait: with a tolerance,
+ * until the counter reaches a multiple of the largest power of two not above
+ * tolerance + 1 (at least every tolerance + 1 increments, and always at a
+ * wrap to 0), unless the counter has passed its wrap with what perf counted.
+ */
+static bool pmc_defer_reprogram(struct kvm_pmc *pmc)
+{
+	defer_body;
+}
+
 static void kvm_pmu_incr_counter(...)
 {
 	...
 }

@script:python depends on defer_sync@
@@
done("defer")

@incr_sync depends on sync@
identifier sy_text.incr_tail;
@@
 static void kvm_pmu_incr_counter(...)
 {
 	...
-	reprogram_counter(pmc);
+	incr_tail;
 	...
 }

@script:python depends on incr_sync@
@@
done("incr")

@script:python h_gate@
p << h_site.p;
fn;
@@
if SHAPE == "sync":
	coccinelle.fn = cocci.make_ident("kvm_pmu_fold_batched_overflow")
elif SHAPE == "prev_counter" and "write" in DONE:
	coccinelle.fn = cocci.make_ident("kvm_pmu_write_pending_overflow")
else:
	cocci.include_match(False)

@h_write@
identifier h_gate.fn;
@@
+void fn(struct kvm_pmc *pmc);
+
 static inline void pmc_write_counter(...)
 {
+	fn(pmc);
 	...
 }

@script:python depends on h_write@
@@
done("pmu.h")

@finalize:python@
@@
if ALREADY:
	print("ALREADY")
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
