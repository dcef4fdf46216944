#!/bin/bash
# kverify latency: the v2 posting's table from function_graph traces.
# tests/latency/tcg-pass-{1..4}.trace.xz are four passes of the latency
# job recorded here end to end (tools/guest/latency-host, ACCEL=tcg, Debian's
# 6.12 kernel as the guest, 2 vCPUs, 5 s a pass, tolerances 0 and 1000
# twice round): the parser's figures must equal an independent computation
# (python, over the leaf lines), the table must warn that TCG's numbers
# mean nothing, put v2's row beside each tolerance, and be written as
# printed to DIR/latency/table.txt for kverify summary (t0179 renders it).  Hand-made traces
# cover what the recording lacks: nested calls closed by "}", markers, the
# funcgraph-tail comment, lost events; bad input exits 2 with FILE:LINE.
# latency-host meets a hostile guest (a fake qemu on PATH); --lava's lines
# go through lava-dispatcher's monitor.  Cost: about 2 s.
. "$(dirname "$0")/lib.sh"

plan 12
K=build/kverify
# kverify latency also writes its table to DIR/latency/table.txt: here
# $TMP/res, not the checkout's results/.
lat() { "$REPO/$K" latency --results "$TMP/res" "$@"; }
for i in 1 2 3 4; do xz -dc tests/latency/tcg-pass-$i.trace.xz > "$TMP/pass-$i.trace"; done

# The figures by another road: python over every leaf line of the function.
figures() {	# figures TRACE...: "tolerance mean p50 p99 p99.9 max ticks" a pass
	/usr/bin/python3 - "$@" <<'PY'
import math, re, sys
for f in sys.argv[1:]:
    tol, d = None, []
    for line in open(f):
        m = re.match(r"# kverify-latency tolerance=(\d+)", line)
        if m:
            tol = m.group(1)
        m = re.match(r"\s*\d+\)\s*[+!#*@$]?\s*([\d.]+) us\s*\|\s*__sysvec_apic_timer_interrupt\(\);", line)
        if m:
            d.append(float(m.group(1)))
    d.sort()
    rank = lambda p: d[max(math.ceil(p * len(d) / 1000) - 1, 0)]
    print("%s %.3f %.3f %.3f %.3f %.3f %d" % (tol, sum(d) / len(d), rank(500), rank(990), rank(999), d[-1], len(d)))
PY
}

test_expect_success 'the recorded TCG passes: each row equals the independent computation' '
	lat "$TMP"/pass-*.trace > "$TMP/table" && cat "$TMP/table" &&
	figures "$TMP"/pass-1.trace "$TMP"/pass-3.trace "$TMP"/pass-2.trace "$TMP"/pass-4.trace > "$TMP/want" &&
	sed -n "s/^  \([0-9]*\) run [0-9]* *\([0-9.]*\) *\([0-9.]*\) *\([0-9.]*\) *\([0-9.]*\) *\([0-9.]*\) *\([0-9]*\)$/\1 \2 \3 \4 \5 \6 \7/p" \
		"$TMP/table" > "$TMP/got" &&
	cat "$TMP/want" && diff "$TMP/want" "$TMP/got" && [ $(wc -l < "$TMP/got") = 4 ]
'
test_expect_success 'TCG: the table says loudly, before and after, that its numbers mean nothing' '
	[ $(grep -c "^!!! TCG: THESE NUMBERS MEAN NOTHING" "$TMP/table") = 2 ] &&
	grep -q "^machine: host .*, tcg, 2 vCPUs, 5 s per pass$" "$TMP/table"
'
test_expect_success 'v2'"'"'s published row beside each tolerance, and the spread of several runs' '
	grep -A3 "^  0 run 2" "$TMP/table" | grep -q "^    v2 (EPYC 7R13, 1 run)   148.973   11.080  464.200  469.569   919.690" &&
	grep -A3 "^  1000 run 2" "$TMP/table" | grep -q "^    v2 (EPYC 7R13, 1 run)     3.194    2.950    7.251    9.831   470.100" &&
	[ $(grep -c "^    spread (min-max)" "$TMP/table") = 2 ]
'
test_expect_success 'a KVM trace (accel=kvm, a real CPU) gets no TCG warning; a changed duration changes the figures' '
	sed "1s/accel=tcg machine=.*/accel=kvm machine=host AMD EPYC 7R13/" "$TMP/pass-1.trace" |
		sed "0,/| *__sysvec_apic_timer_interrupt();/s/[0-9.]* us *| *__sysvec_apic_timer_interrupt();/99999.000 us |  __sysvec_apic_timer_interrupt();/" > "$TMP/kvm.trace" &&
	lat "$TMP/kvm.trace" > "$TMP/kvm.table" && cat "$TMP/kvm.table" &&
	! grep -q "TCG" "$TMP/kvm.table" &&
	figures "$TMP/kvm.trace" > "$TMP/kvm.want" && grep -q " 99999.000 " "$TMP/kvm.want" &&
	grep -q "^  0 run 1 .* 99999.000  1146$" "$TMP/kvm.table"
'

test_expect_success 'the table is also DIR/latency/table.txt as printed (results/ by default); a DIR it cannot write: exit 3, the table and --lava lines printed' '
	lat "$TMP"/pass-*.trace > "$TMP/table2" && cmp "$TMP/table2" "$TMP/res/latency/table.txt" &&
	cmp "$TMP/table" "$TMP/table2" &&
	mkdir -p "$TMP/cwd" && (cd "$TMP/cwd" && "$REPO/$K" latency "$TMP/pass-1.trace" > out 2> err) &&
	cat "$TMP/cwd/err" && cmp "$TMP/cwd/out" "$TMP/cwd/results/latency/table.txt" &&
	grep -q "^kverify: latency: the table in results/latency/table.txt " "$TMP/cwd/err" &&
	{ "$REPO/$K" latency --lava --results "$TMP/table" "$TMP/pass-1.trace" > "$TMP/ro.out" 2> "$TMP/ro.err"; [ $? = 3 ]; } &&
	cat "$TMP/ro.err" && grep -q "^kverify: $TMP/table/latency/table.txt: cannot write it" "$TMP/ro.err" &&
	grep -q "^  0 run 1 " "$TMP/ro.out" && grep -q "^kverify-latency-measure: done$" "$TMP/ro.out"
'

# Hand-made, in the format of the kernel'"'"'s function_graph tracer: nested
# calls (max_graph_depth unset), markers, funcgraph-tail, an irq, lost events.
cat > "$TMP/nested.trace" <<'TRACE'
# tracer: function_graph
#
# CPU  DURATION                  FUNCTION CALLS
# |     |   |                     |   |   |   |
 1)   0.300 us    |    } /* opened before the trace */
 0)               |  __sysvec_apic_timer_interrupt() {
 1)   2.500 us    |  __sysvec_apic_timer_interrupt();
 0)               |    hrtimer_interrupt() {
 0)   1.000 us    |      _raw_spin_lock_irqsave();
 0) + 12.000 us   |    }
 0) + 14.250 us   |  } /* __sysvec_apic_timer_interrupt */
CPU:1 [LOST 3 EVENTS]
 1)               |  __sysvec_apic_timer_interrupt() {
 1)   0.500 us    |    irq_enter_rcu();
 1) ! 150.000 us  |  }
 0)   3.000 us    |  __sysvec_apic_timer_interrupt();
TRACE
test_expect_success 'nested calls, markers, funcgraph-tail, lost events: the durations of the function only' '
	lat 1000="$TMP/nested.trace" > "$TMP/nested.table" && cat "$TMP/nested.table" &&
	grep -q "^  1000 run 1  *42.438    3.000  150.000  150.000   150.000  4 (events lost)$" "$TMP/nested.table"
'
test_expect_success 'not a function_graph trace: exit 2, FILE:LINE' '
	printf "# tracer: function\n 0) 1.0 us | x();\n" > "$TMP/fn.trace" &&
	lat 0="$TMP/fn.trace" 2> "$TMP/err"; [ $? = 2 ] && cat "$TMP/err" &&
	grep -q "fn.trace:1: not a function_graph trace" "$TMP/err"
'
test_expect_success 'a duration that is not "N.NNN us": exit 2, FILE:LINE' '
	sed "7s/2.500 us/2.500 ms/" "$TMP/nested.trace" > "$TMP/ms.trace" &&
	lat 0="$TMP/ms.trace" 2> "$TMP/err"; [ $? = 2 ] && cat "$TMP/err" &&
	grep -q "ms.trace:7: the duration column is not" "$TMP/err"
'
test_expect_success 'no tolerance (no header, no T=FILE), no such file, no argument: exit 2' '
	lat "$TMP/nested.trace" 2> "$TMP/err"; [ $? = 2 ] &&
	grep -q "nested.trace:1: no tolerance" "$TMP/err" &&
	{ lat 0="$TMP/none.trace" 2> "$TMP/err"; [ $? = 2 ]; } &&
	grep -q "none.trace: No such file" "$TMP/err" &&
	{ lat 2> /dev/null; [ $? = 2 ]; }
'

# latency-host reads the guest's console as data: a fake QEMU on PATH
# plays a hostile guest.
mkdir -p "$TMP/fakebin"
fake_guest() {	# fake_guest LINE...: a qemu-system-x86_64 that prints them
	{ echo '#!/bin/sh'; for l in "$@"; do printf "printf '%%s\\n' '%s'\n" "$l"; done; echo 'sleep 5'; } \
		> "$TMP/fakebin/qemu-system-x86_64"
	chmod +x "$TMP/fakebin/qemu-system-x86_64"
}
hostile_host() {	# hostile_host: latency-host against the fake guest
	echo 0 > "$TMP/hparam"
	PATH=$TMP/fakebin:$PATH ACCEL=tcg RUNS=1 TOLERANCES="0 1000" PARAM=$TMP/hparam \
		timeout 60 tools/guest/latency-host /dev/null /dev/null "$TMP/hout" 2> "$TMP/herr"
}
test_expect_success 'latency-host: a pass number that is an expression is refused, never evaluated' '
	fake_guest "kverify-latency: ready x[\$(touch $TMP/pwned)]" &&
	{ hostile_host; [ $? = 1 ]; } && cat "$TMP/herr" &&
	! test -e "$TMP/pwned" && grep -q "the guest asked for pass .x\[" "$TMP/herr"
'
test_expect_success 'latency-host: a trace named by a path, or a pass beyond the plan, is refused' '
	fake_guest "kverify-latency: ready 1" "kverify-latency: trace begin ../../escape tolerance=0" &&
	{ hostile_host; [ $? = 1 ]; } && cat "$TMP/herr" &&
	! test -e "$TMP/escape.trace" && ! ls "$TMP"/hout/*.trace 2> /dev/null &&
	grep -q "the guest sent a trace of pass .\.\./\.\./escape. of 2" "$TMP/herr" &&
	fake_guest "kverify-latency: ready 3" && { hostile_host; [ $? = 1 ]; } &&
	grep -q "the guest asked for pass .3. of 2" "$TMP/herr"
'

# --lava: LAVA's own monitor code (tests/lava/replay.py) must record each
# figure as a test case with its measurement, as latency-monitor.yaml says.
if ! /usr/bin/python3 -c 'import lava_dispatcher.actions.test.monitor' 2> /dev/null; then
	skip "kverify latency --lava through LAVA's monitor" "lava-dispatcher is not installed (apt-get install lava-dispatcher)"
else
	test_expect_success 'kverify latency --lava: a job with latency-monitor.yaml is valid; LAVA records every figure of every pass as a measurement' '
		/usr/bin/python3 - tools/lava/qemu-tcg.yaml tools/lava/latency-monitor.yaml "$TMP/ljob.yaml" <<-PY &&
		import sys, yaml
		j = yaml.safe_load(open(sys.argv[1]))
		mon = yaml.safe_load(open(sys.argv[2]))[0]
		j["actions"] = [a for a in j["actions"] if "test" not in a] + [mon]
		yaml.safe_dump(j, open(sys.argv[3], "w"))
		from lava_common.schemas import validate
		validate(j, strict=True)
		PY
		{ echo "kverify-guest: booted host"; lat --lava "$TMP"/pass-*.trace; } > "$TMP/lconsole" &&
		/usr/bin/python3 tests/lava/replay.py "$TMP/ljob.yaml" "$TMP/lconsole" > "$TMP/lr.json" &&
		/usr/bin/python3 - "$TMP/lr.json" "$TMP/want" <<-PY
		import json, sys
		r = json.load(open(sys.argv[1]))
		m = r["measurements"]
		assert r["status"] == "passed", r
		assert len(m) == 24 and all(v == "pass" for v in r["results"].values()), (len(m), r["results"])
		want = [l.split() for l in open(sys.argv[2])]
		runs = {}
		for tol, mean, p50, p99, p999, mx, ticks in want:
		    runs[tol] = runs.get(tol, 0) + 1
		    case = "tolerance_%s_run_%d_" % (tol, runs[tol])
		    for name, v in (("mean", mean), ("p50", p50), ("p99", p99), ("p99_9", p999), ("max", mx)):
		        assert m[case + name] == [float(v), "us"], (case + name, m[case + name], v)
		    assert m[case + "ticks"] == [float(ticks), "ticks"], (case, m[case + "ticks"])
		print("24 measurements, as computed")
		PY
	'
fi
done_testing
