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
///   APPLIED <shape> | ALREADY | NOT-APPLICABLE <reason> | UNKNOWN
/// UNKNOWN (the function exists in a shape no rule knows) exits non-zero.
///
/// Run on arch/x86/kvm/{pmu.c,x86.c,x86.h}, in that order, in one spatch
/// invocation: the shape found in pmu.c decides where the parameter goes.
///
// Confidence: High
// Requires: 1.1.1
// Options: --no-includes --include-headers
#spatch --no-includes --include-headers

@initialize:python@
@@
import sys

PARAM = "emulated_counter_reprogram_tolerance"
SHAPE = None
ALREADY = False
HAS_FN = False

def pre_mediated():
	return SHAPE in ("emulated_counter", "prev_counter", "sync")

@already@
identifier t = emulated_counter_reprogram_tolerance;
@@
 static void kvm_pmu_incr_counter(...)
 {
 	<+... t ...+>
 }

@script:python depends on already@
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

@mediated depends on !already@
identifier vcpu;
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
 	...
 	if (!kvm_vcpu_has_mediated_pmu(vcpu)) {
-		pmc->emulated_counter++;
-		kvm_pmu_request_counter_reprogram(pmc);
-		return;
+		u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
+
+		pmc->emulated_counter++;
+
+		/*
+		 * Batch reprograms: only force one once the accumulated
+		 * emulated count exceeds the tolerance.  The count is still
+		 * reflected in guest counter reads via pmc->emulated_counter;
+		 * this only bounds how late an overflow-driven PMI arrives.
+		 */
+		if (pmc->emulated_counter > tolerance)
+			kvm_pmu_request_counter_reprogram(pmc);
+		return;
 	}
 	...
 }

@script:python depends on mediated@
@@
SHAPE = "mediated"

@emulated_counter depends on !already && !mediated@
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
-	pmc->emulated_counter++;
-	kvm_pmu_request_counter_reprogram(pmc);
+	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
+
+	pmc->emulated_counter++;
+
+	/*
+	 * Batch reprograms: only force one once the accumulated emulated
+	 * count exceeds the tolerance.  The count is still reflected in guest
+	 * counter reads via pmc->emulated_counter; this only bounds how late
+	 * an overflow-driven PMI arrives.
+	 */
+	if (pmc->emulated_counter > tolerance)
+		kvm_pmu_request_counter_reprogram(pmc);
 }

@script:python depends on emulated_counter@
@@
SHAPE = "emulated_counter"

// 6.2 and 6.3 spelled the request helper without its second 'r'.
@prev_counter depends on !already && !mediated && !emulated_counter@
identifier request = {kvm_pmu_request_counter_reprogram,
		      kvm_pmu_request_counter_reprogam};
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
-	pmc->prev_counter = pmc->counter;
-	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
-	request(pmc);
+	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
+	u64 batch = tolerance ? BIT_ULL(ilog2((u64)tolerance + 1)) : 1;
+	u64 prev_counter = pmc->counter;
+
+	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
+
+	/*
+	 * Batch reprograms: request one when the counter reaches a multiple of
+	 * the largest power of two not above tolerance + 1.  The counter moves
+	 * by one per emulated instruction, so a reprogram is requested at
+	 * least every tolerance + 1 of them, and always when it wraps to 0.
+	 */
+	if (pmc->counter & (batch - 1))
+		return;
+
+	/*
+	 * reprogram_counter() signals overflow if the counter went below
+	 * prev_counter and then zeroes prev_counter.  While a batched request
+	 * is pending keep the oldest value, or a wrap earlier in the batch
+	 * would be lost.
+	 */
+	if (batch == 1 || !pmc->prev_counter)
+		pmc->prev_counter = prev_counter;
+	request(pmc);
 }

@script:python depends on prev_counter@
@@
SHAPE = "prev_counter"

@sync depends on !already && !mediated && !emulated_counter && !prev_counter@
identifier prev;
@@
 static void kvm_pmu_incr_counter(struct kvm_pmc *pmc)
 {
-	u64 prev;
-	prev = pmc->counter;
-	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
-	reprogram_counter(pmc);
-	if (pmc->counter < prev)
-		__kvm_perf_overflow(pmc, false);
+	u32 tolerance = READ_ONCE(emulated_counter_reprogram_tolerance);
+	u64 batch = tolerance ? BIT_ULL(ilog2((u64)tolerance + 1)) : 1;
+	u64 prev;
+
+	prev = pmc->counter;
+	pmc->counter = (pmc->counter + 1) & pmc_bitmask(pmc);
+
+	/*
+	 * Batch reprograms: reprogram when the counter reaches a multiple of
+	 * the largest power of two not above tolerance + 1.  The counter moves
+	 * by one per emulated instruction, so it is reprogrammed at least every
+	 * tolerance + 1 of them, and always when it wraps to 0.  Skipping
+	 * leaves the perf event running: guest reads of pmc->counter plus the
+	 * event's count stay exact.
+	 */
+	if (pmc->counter & (batch - 1))
+		return;
+
+	/* Fold in the hardware count; a wrap in this batch lands below prev. */
+	reprogram_counter(pmc);
+	if (pmc->counter < prev)
+		__kvm_perf_overflow(pmc, false);
 }

@script:python depends on sync@
@@
SHAPE = "sync"

// The parameter: next to enable_pmu, in pmu.c (7.x) or x86.c (older).
@static_site@
declarer name module_param;
position p;
@@
 module_param@p(enable_pmu, ...);

@script:python gate_static@
p << static_site.p;
param;
@@
if SHAPE != "mediated":
	cocci.include_match(False)
else:
	coccinelle.param = PARAM

@add_static_param@
declarer name module_param;
identifier gate_static.param;
@@
 module_param(enable_pmu, ...);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram to fold the
+ * emulated count into the backing perf_event.  Writable at runtime, read with
+ * READ_ONCE() in the emulation path.
+ */
+static uint __read_mostly param;
+module_param(param, uint, 0644);

@global_site@
declarer name module_param;
position p;
@@
 module_param@p(enable_pmu, ...);

@script:python gate_global@
p << global_site.p;
param;
@@
if not pre_mediated():
	cocci.include_match(False)
else:
	coccinelle.param = PARAM

@add_global_param@
declarer name module_param;
identifier gate_global.param;
@@
 module_param(enable_pmu, ...);
+
+/*
+ * Number of KVM-emulated instructions that may accumulate on an emulated
+ * (perf-based) vPMU counter before KVM forces a counter reprogram.  Writable
+ * at runtime, read with READ_ONCE() in the emulation path (pmu.c).
+ */
+unsigned int __read_mostly param;
+module_param(param, uint, 0644);

@enable_pmu_extern@
position p;
@@
 extern bool enable_pmu@p;

@script:python gate_extern@
p << enable_pmu_extern.p;
param;
@@
if not pre_mediated():
	cocci.include_match(False)
else:
	coccinelle.param = PARAM

@add_extern@
identifier gate_extern.param;
@@
 extern bool enable_pmu;
+extern unsigned int param;

@finalize:python@
@@
if ALREADY:
	print("ALREADY")
elif SHAPE:
	print("APPLIED " + SHAPE)
elif not HAS_FN:
	print("NOT-APPLICABLE no per-emulated-instruction PMU accounting: "
	      "kvm_pmu_incr_counter() is absent (added in 5.19)")
else:
	print("UNKNOWN")
	sys.stdout.flush()
	sys.exit(3)
