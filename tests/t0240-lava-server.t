#!/bin/bash
# The bundle's TCG job through a real LAVA server: Debian's lava-server
# and lava-dispatcher (2023.01), PostgreSQL 15, the qemu device type, a
# device and a worker, all started here on the loopback by
# tools/lava/lava-server-local (docs/lab.md, "A LAVA server here") and
# stopped when the script ends (an EXIT trap, on a failure too).  The job
# results/6.12/bundle/lava-qemu-tcg.yaml, as make bundle wrote it, is
# submitted with lavacli, scheduled by lava-scheduler on the device,
# run by lava-worker, and its results read back through the server's REST
# API; they must equal kverify's report of the same boot (report.json,
# tests/lava/compare.py as in t0164), the job it stored names what
# report.json names (series, package), and a job
# whose artifact's sha256sum is wrong must end Incomplete with LAVA's job
# result fail.  A mutated result (the server's or kverify's) must be
# reported as different.
# Prerequisite LAVA_SERVER: the Debian packages, which tools/deps installs
# as root (as anyone else it prints the apt-get line, which the SKIP reason
# repeats), root (the worker's lava-run), a writable
# /var/lib/lava/dispatcher; where one is missing every check SKIPs, saying
# which.
# Cost here (2 shared vCPUs): make bundle on the cached 6.12 build (its
# boot memoized, ~30 s; a cold cache builds the kernel: 29 min under load
# here), the server's start (15 s wall quiet, 12 CPU-s), two jobs (each up
# to 20 s waiting for the scheduler, then ~12 s and ~3 s), stop ~6 s: 84 s
# wall, ~30 CPU-s of the script's own children plus ~7 CPU-s of the
# server's processes.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_BUNDLE_TARGET:-6.12}
B=results/$T/bundle
LSL=tools/lava/lava-server-local
N=9
plan $N

server_missing() {	# why the server cannot run here, or nothing
	tools/deps lava-server lava-dispatcher lavacli postgresql qemu-system-x86 > "$TMP/deps.out" 2>&1 ||
		{ echo "missing packages: $(tail -n 1 "$TMP/deps.out" | sed 's/^ *//')"; return; }
	[ "$(id -u)" = 0 ] || { echo "not root: the worker's lava-run refuses uid $(id -u)"; return; }
	[ -w /var/lib/lava/dispatcher ] || { echo "/var/lib/lava/dispatcher is not writable (lava-dispatcher's working directory)"; return; }
	id lavaserver > /dev/null 2>&1 || echo "no user lavaserver (lava-server's postinst makes it)"
}
why=$(server_missing)
if [ -n "$why" ]; then
	for i in $(seq $N); do skip "a LAVA server here (prerequisite LAVA_SERVER)" "$why"; done
	exit 0
fi

# The instance lives in $TMP, which lavaserver and postgres must reach.
S=$TMP/lava-server
chmod o+x "$TMP"
trap '_rc=$?; "$REPO/$LSL" stop "$S" > /dev/null 2>&1; _tmp_end $_rc' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# job ID FIELD: a field of job ID as the server's REST API gives it
job() {
	"$LSL" api "$S" "jobs/$1/" | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"
}

test_expect_success "make bundle KERNEL=$T: a TCG job fetching from file://" '
	make --no-print-directory bundle KERNEL=$T BOOT=own SKIP=sim > "$TMP/bundle.out" 2>&1 &&
	grep -q "url: '"'"'file://$PWD/$B/bzImage'"'"'" $B/lava-qemu-tcg.yaml
'
test_expect_success 'lava-server-local starts PostgreSQL, lava-server, the scheduler and a worker, on the loopback only' '
	"$LSL" start "$S" > "$TMP/start.out" 2>&1 &&
	cat "$TMP/start.out" && . "$S/env" &&
	case $LAVA_URL in http://127.0.0.1:[0-9]*) ;; *) false ;; esac &&
	"$LSL" api "$S" workers/kverify-worker/ | grep -q "\"state\":\"Online\"" &&
	"$LSL" api "$S" devices/kverify-qemu-01/ > "$TMP/device.json" &&
	grep -q "\"state\":\"Idle\"" "$TMP/device.json" && grep -q "\"health\":\"Good\"" "$TMP/device.json" &&
	grep -q "listening on Unix socket \"$S/pg/.s.PGSQL.5432\"" "$S/pg/postgres.log" &&
	! grep -q "listening on IPv" "$S/pg/postgres.log" &&
	grep -q "Listening at: $LAVA_URL " "$S/log/gunicorn.log"
'
test_expect_success 'lavacli submits the bundle'"'"'s TCG job; scheduled on the device, run by the worker: Complete' '
	"$LSL" submit "$S" $B/lava-qemu-tcg.yaml > "$TMP/id" &&
	id=$(cat "$TMP/id") && test "$id" -gt 0 &&
	{ "$LSL" wait "$S" "$id" 1200 > "$TMP/health"; st=$?; } &&
	cat "$TMP/health" && test $st = 0 && test "$(cat "$TMP/health")" = Complete &&
	test "$(job "$id" actual_device)" = kverify-qemu-01
'
test_expect_success "the server's results, read back through its REST API, equal kverify's report of the same boot" '
	"$LSL" results "$S" "$id" > "$TMP/results.yaml" &&
	grep -c "^- " "$TMP/results.yaml" &&
	/usr/bin/python3 tests/lava/compare.py "$TMP/results.yaml" results/$T/report.json
'
test_expect_success 'the comparison reports a server result that differs, a missing case and a failed job' - <<\EOT
	/usr/bin/python3 - "$TMP/results.yaml" "$TMP" <<-PY &&
	import sys, yaml
	cases = yaml.safe_load(open(sys.argv[1]))
	skip = [c for c in cases if c["suite"] != "lava" and c["result"] == "skip"][0]
	flip = [dict(c, result="pass") if c is skip else c for c in cases]
	yaml.safe_dump(flip, open(sys.argv[2] + "/flip.yaml", "w"))
	drop = [c for c in cases if c["name"] != "cpuid_test"]
	yaml.safe_dump(drop, open(sys.argv[2] + "/drop.yaml", "w"))
	job = [dict(c, result="fail") if (c["suite"], c["name"]) == ("lava", "job") else c
	       for c in cases]
	yaml.safe_dump(job, open(sys.argv[2] + "/jobfail.yaml", "w"))
	print(skip["name"])
	PY
	test_must_fail /usr/bin/python3 tests/lava/compare.py "$TMP/flip.yaml" results/$T/report.json > "$TMP/flip.out" &&
	cat "$TMP/flip.out" && grep -q ": kverify skip, LAVA pass$" "$TMP/flip.out" &&
	test_must_fail /usr/bin/python3 tests/lava/compare.py "$TMP/drop.yaml" results/$T/report.json > "$TMP/drop.out" &&
	grep -qx "cpuid_test: kverify pass, LAVA nothing" "$TMP/drop.out" &&
	test_must_fail /usr/bin/python3 tests/lava/compare.py "$TMP/jobfail.yaml" results/$T/report.json > "$TMP/jobfail.out" &&
	grep -qx "LAVA's job result: fail" "$TMP/jobfail.out"
EOT
test_expect_success 'the job as the server stored it names the series and package report.json names' '
	"$LSL" api "$S" "jobs/$id/" > "$TMP/job.json" &&
	/usr/bin/python3 - "$TMP/job.json" $B/lava-qemu-tcg.yaml results/$T/report.json <<-PY
	import json, sys, yaml
	server = yaml.safe_load(json.load(open(sys.argv[1]))["definition"])["metadata"]
	job = yaml.safe_load(open(sys.argv[2]))["metadata"]
	report = json.load(open(sys.argv[3]))
	bad = [k for k in job if str(server.get(k)) != str(job[k])]
	for key, field in (("kverify.series.patchset_hash", "patchset_hash"),
	                   ("kverify.series.change_id", "change_id"),
	                   ("kverify.series.revision", "series_revision"),
	                   ("kverify.series.message_id", "message_id")):
	    if str(report.get(field) or "none") != str(server.get(key)):
	        bad.append("%s: server %s, report %s" % (key, server.get(key), report.get(field)))
	print("\n".join(bad) or "%d metadata fields agree" % len(job))
	sys.exit(1 if bad else 0)
	PY
'
test_expect_success 'a job whose artifact'"'"'s sha256sum is wrong ends Incomplete, LAVA'"'"'s job result fail' '
	sed "0,/sha256sum: '"'"'[0-9a-f]*'"'"'/s//sha256sum: '"'"'$(printf %064d 0)'"'"'/" \
		$B/lava-qemu-tcg.yaml > "$TMP/badsum.yaml" &&
	bad=$("$LSL" submit "$S" "$TMP/badsum.yaml") &&
	test_must_fail "$LSL" wait "$S" "$bad" 600 > "$TMP/badhealth" &&
	test "$(cat "$TMP/badhealth")" = Incomplete &&
	"$LSL" results "$S" "$bad" > "$TMP/bad.yaml" &&
	test_must_fail /usr/bin/python3 tests/lava/compare.py "$TMP/bad.yaml" results/$T/report.json > "$TMP/bad.out" &&
	grep -x "LAVA'"'"'s job result: fail" "$TMP/bad.out"
'
# left: the processes whose command line names the instance's directory
left='
import glob, os, sys
me = str(os.getpid())
for f in glob.glob("/proc/[0-9]*/cmdline"):
    try:
        argv = open(f, "rb").read().decode(errors="replace")
    except OSError:
        continue
    if os.environ["S"] + "/" in argv and f.split("/")[2] != me:
        print(f, argv.replace("\0", " ")); sys.exit(1)
'
test_expect_success 'lava-server-local stop leaves no process of the instance behind' '
	for f in gunicorn scheduler worker; do read -r p _ < "$S/$f.pid" && echo $p || return 1; done > "$TMP/pids" &&
	read -r pg < "$S/pg/data/postmaster.pid" && echo $pg >> "$TMP/pids" &&
	"$LSL" stop "$S" &&
	for p in $(cat "$TMP/pids"); do
		# a zombie (Z) has ended: only PID 1, its parent now, has to reap it
		{ ps -o stat=,pid=,args= -s $p > "$TMP/left"; st=$?; } &&
		! grep -v "^ *Z" "$TMP/left" || { echo "session $p is left"; return 1; }
	done &&
	S=$S /usr/bin/python3 -c "$left" &&
	test_must_fail "$LSL" api "$S" system/version/
'
test_expect_success 'a second stop does nothing; a start on an existing directory is refused' '
	"$LSL" stop "$S" &&
	test_expect_code 2 "$LSL" start "$S" 2> "$TMP/again.err" &&
	grep -q "exists" "$TMP/again.err"
'
done_testing
