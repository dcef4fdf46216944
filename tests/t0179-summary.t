#!/bin/bash
# make verify and verify-all end with kverify summary: results/summary.md
# and results/index.html from the reports there, rendered here by headless
# Chromium (Debian's chromium) and checked in the DOM it has after load:
# one row per target, each step's status (its cell's class too), the
# reasons cut short and linked to their logs, the sim's figures as SVG
# points; a report's strings are text (a <script> in a reason injects no
# script element: a build whose summary does not escape is shown to fail
# that check); the summary changes no exit status.  The page of a make
# verify-all of two targets, one of them n/a, SKIP of the kernel steps, is
# checked against each report the same way (a summary that shows a SKIP as
# PASS is shown to fail it).  kverify latency's table is written to
# results/latency/table.txt and shown by the page and summary.md as it is.
# On a terminal, the step table's reasons are cut to its width (a pty of
# 100 columns, by script(1)).
# Cost: four verify runs of the cached 7.3 source up to config, with its
# sim, one of the n/a target (its fetch and cocci), and a few renders.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_SUMMARY_TARGET:-7.3}
PY=/usr/bin/python3
plan 13
cached_source $T > /dev/null || exit 1
command -v chromium > /dev/null || { echo "Bail out! no chromium (make deps-check installs it)"; exit 1; }

# render PAGE OUT: the DOM after load, as Chromium has it.
render() {
	timeout 60 chromium --headless=new --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$(realpath "$1")" \
		> "$2" 2> "$TMP/chromium.err" && test -s "$2"
}

# dom DOM REPORTS...: what the page shows, checked against the reports.
dom() {
	$PY - "$@" <<-\PY
	import html.parser, json, sys
	class P(html.parser.HTMLParser):
	    def __init__(s):
	        super().__init__(); s.stack = []; s.rows = []; s.scripts = 0
	        s.points = {"reprograms": 0, "reads": 0}; s.svg = 0; s.title = ""
	        s.versions = []; s.cur = None; s.pre = None; s.latency = ""
	    def handle_starttag(s, tag, a):
	        a = dict(a); s.stack.append((tag, a))
	        if tag == "script": s.scripts += 1
	        if tag == "svg": s.svg += 1
	        if tag == "tr": s.cur = {"target": s.rows, "version": s.versions}.get(a.get("class"))
	        if tag == "tr" and s.cur is not None: s.cur.append([])
	        if tag == "td" and s.cur: s.cur[-1].append({"text": "", "href": None, "cls": a.get("class")})
	        if tag == "pre": s.pre = a.get("id")
	        if tag == "a" and s.cur and s.cur[-1]: s.cur[-1][-1]["href"] = a.get("href")
	        if tag == "g" and "point" in a.get("class", ""):
	            s.points[a["class"].split()[1]] += 1
	    def handle_endtag(s, tag):
	        while s.stack and s.stack.pop()[0] != tag: pass
	        if tag == "pre": s.pre = None
	        if tag == "table": s.cur = None
	    def handle_data(s, d):
	        tags = [t for t, _ in s.stack]
	        if tags and tags[-1] == "title" and "svg" not in tags: s.title += d
	        if "td" in tags and s.cur and s.cur[-1]: s.cur[-1][-1]["text"] += d
	        if s.pre == "latency": s.latency += d
	p = P(); p.feed(open(sys.argv[1]).read())
	reps = [json.load(open(f)) for f in sys.argv[2:]]
	assert p.title == "kverify results", ("title", p.title)
	assert p.scripts == 0, ("script elements", p.scripts)
	assert len(p.rows) == len(reps), ("rows", len(p.rows), len(reps))
	want = {"reprograms": 0, "reads": 0}
	for r, row in zip(sorted(reps, key=lambda r: r["target"]), p.rows):
	    row = [c for c in row if c["text"]]
	    assert len(row) == len(r["steps"]), (r["target"], len(row))
	    for s, c in zip(r["steps"], row):
	        assert c["text"].startswith(s["status"] + " %.1fs" % s["seconds"]), (s["name"], c["text"][:60])
	        cls = s["status"] if s["status"] in ("PASS", "FAIL", "ERROR", "SKIP") else "other"
	        assert c["cls"] == cls, (s["name"], c["cls"], cls)
	        assert s["reason"][:40].replace("\n", " ") in c["text"] or len(s["reason"]) > 80, (s["name"], c["text"])
	        assert len(c["text"]) <= len(s["status"]) + 12 + 81, (s["name"], len(c["text"]))
	        if len(s["reason"]) > 80: assert c["text"].endswith("\u2026"), c["text"][-20:]
	        if "/" not in r["target"] and ".." not in s["log"]:
	            assert c["href"] == r["target"] + "/" + s["log"], (s["name"], c["href"])
	        else:
	            assert c["href"] is None, (s["name"], c["href"])
	    sim = r.get("sim") or {}
	    want["reprograms"] += len(sim.get("reprograms_per_million_emulated", {}))
	    want["reads"] += len(sim.get("reads_per_million_emulated", {}))
	assert p.points == want, ("points", p.points, want)
	assert p.svg == (1 if want["reads"] + want["reprograms"] else 0), ("svg", p.svg)
	print(len(p.rows), "rows,", p.points, "points,", len(p.versions), "sweep rows")
	open(sys.argv[1] + ".versions", "w").write(json.dumps(p.versions))
	open(sys.argv[1] + ".latency", "w").write(p.latency)
	PY
}

# A latency table another run left would be on every page below.
rm -rf results/latency
rm -f results/summary.md results/index.html
test_expect_success "make verify KERNEL=$T SKIP=build,kabi,selftests,boot writes results/summary.md and index.html" '
	make --no-print-directory verify KERNEL=$T SKIP=build,kabi,selftests,boot > "$TMP/out" 2>&1 &&
	grep -q "^kverify: summary: results/summary.md, results/index.html (1 targets)" "$TMP/out" &&
	test -s results/summary.md && test -s results/index.html
'
test_expect_success 'Chromium shows its page: one row, each step status and time, reasons cut and linked, the sim figures as SVG points' '
	render results/index.html "$TMP/dom1" && dom "$TMP/dom1" results/$T/report.json &&
	grep -q "<svg" "$TMP/dom1" && [ "$(json results/$T/report.json "len(r[\"sim\"][\"reprograms_per_million_emulated\"])")" -ge 3 ]
'
test_expect_success 'summary.md: the same table, a log behind each status; the sim reason cut short' '
	grep -q "^| $T | \[PASS [0-9.]*s\]($T/logs/00-fetch.log) |" results/summary.md &&
	grep "^- $T sim PASS: " results/summary.md > "$TMP/simline" &&
	[ "$(wc -m < "$TMP/simline")" -lt 160 ] && grep -q "…" "$TMP/simline"
'

# A second target, hand-written: a reason with markup, a log outside its
# directory, a 300-character reason, a status kverify never writes.
mkdir -p results/zz-hostile
$PY - results/zz-hostile/report.json <<-\PY
import json, sys
json.dump({"target": "zz-hostile", "steps": [
    {"name": "fetch", "status": "FAIL", "seconds": 1.25, "log": "logs/00-fetch.log",
     "reason": "<script>document.title=\"pwned\"</script><img src=x onerror=\"document.title='img'\">"},
    {"name": "tree", "status": "<b>ODD</b>", "seconds": 0.5, "log": "../../../etc/passwd",
     "reason": "x" * 300}],
    "sim": {"reprograms_per_million_emulated": {"0": 1000000, "1000": 900}}}, open(sys.argv[1], "w"))
PY
test_expect_success 'a hostile report: its markup is text, no script element, a log outside its directory not linked' '
	./build/kverify summary > "$TMP/out" 2>&1 &&
	render results/index.html "$TMP/dom2" &&
	dom "$TMP/dom2" results/$T/report.json results/zz-hostile/report.json &&
	grep -q "&lt;script&gt;document.title" "$TMP/dom2" &&
	grep -qF "| zz-hostile | [FAIL 1.2s](zz-hostile/logs/00-fetch.log) | \<b\>ODD\</b\> 0.5s |" results/summary.md &&
	grep -qFe "- zz-hostile fetch FAIL: \<script\>document.title=\"pwned\"\</script\>" results/summary.md ||
		{ grep -c "<script" "$TMP/dom2"; false; }
'

# The mutant: summary.c with xml_escape() as a plain copy.
mkdir -p "$TMP/mut" && cp -a Makefile tools "$TMP/mut/" && cp -a build "$TMP/mut/"
sed -i 's/xml_escape(h, /strbuf_addstr(h, /' "$TMP/mut/tools/summary.c"
test_expect_success 'a summary that does not escape fails that check: the script ran or is in the DOM' '
	make -s -C "$TMP/mut" build/kverify > "$TMP/out" 2>&1 &&
	"$TMP/mut/build/kverify" summary > "$TMP/out" 2>&1 &&
	render results/index.html "$TMP/dom3" &&
	! dom "$TMP/dom3" results/$T/report.json results/zz-hostile/report.json > "$TMP/why" 2>&1 &&
	cat "$TMP/why" && grep -q "AssertionError: (.title.\|AssertionError: (.script elements" "$TMP/why"
'
rm -rf results/zz-hostile

# make verify with a stand-in kverify verify that fails (1, as a FAIL
# does): the recipe still exits 1, and the summary is written after it.
cat > "$TMP/kv1" <<EOF
#!/bin/sh
[ "\$1" != verify ] || exit 1
exec "$PWD/build/kverify" "\$@"
EOF
chmod +x "$TMP/kv1"
test_expect_success 'a make verify that fails still fails as before (its recipe exit 1) and writes the summary; a usage error (2) runs nothing more' '
	rm -f results/summary.md results/index.html &&
	make --no-print-directory verify KERNEL=$T KVERIFY="$TMP/kv1" > "$TMP/out" 2>&1
	rc=$?; cat "$TMP/out"
	[ $rc = 2 ] && grep -Eq "^make(\[[0-9]+\])?: \*\*\* \[Makefile:[0-9]+: verify\] Error 1$" "$TMP/out" &&
	test -s results/summary.md && test -s results/index.html &&
	rm results/summary.md &&
	make --no-print-directory verify KERNEL=$T SKIP=bot > "$TMP/out" 2>&1
	rc=$?; cat "$TMP/out"
	[ $rc = 2 ] && [ "$(grep -c "^kverify: " "$TMP/out")" = 1 ] && ! test -e results/summary.md
'

# verify-all with a stand-in kverify list --names: two names kverify
# verify refuses (exit 2); make's own failure status (2) stays, and the
# summary is written after both.
cat > "$TMP/kv" <<EOF
#!/bin/sh
case "\$1 \$2" in
"list --names") echo nokernel1; echo nokernel2 ;;
*) exec "$PWD/build/kverify" "\$@" ;;
esac
EOF
chmod +x "$TMP/kv"
test_expect_success 'make -k verify-all, both targets failing: exit 2 as before, the summary written after both' '
	rm -f results/summary.md &&
	make --no-print-directory verify-all KVERIFY="$TMP/kv" > "$TMP/out" 2>&1
	rc=$?; cat "$TMP/out"
	[ $rc = 2 ] && test -s results/summary.md &&
	grep -n "verify-one/nokernel\|^kverify: summary: " "$TMP/out" | cut -d: -f2- > "$TMP/order" &&
	sed "s/verify-one.nokernel[12]/T/; s/^kverify: summary: .*/S/; s/.*T.*/T/" "$TMP/order" | tr -d "\n" > "$TMP/seq" &&
	[ "$(cat "$TMP/seq")" = TTS ]
'
# make verify-all of two real targets: $T (its run above, again) and the
# first n/a one of kernels.list, SKIP of the kernel steps (no kernel
# build); the page against each report.json: $T's SKIP rows, the N-A ones.
NA=$(awk '$3 ~ /^n\/a:/ { print $1; exit }' kernels.list)
cat > "$TMP/kvna" <<EOF
#!/bin/sh
case "\$1 \$2" in
"list --names") echo $NA; echo $T ;;
*) exec "$PWD/build/kverify" "\$@" ;;
esac
EOF
chmod +x "$TMP/kvna"
test_expect_success "make verify-all of $T and $NA (n/a), SKIP=build,kabi,selftests,boot: Chromium shows each report, its SKIP and N-A rows" '
	test -n "$NA" && rm -rf "results/$NA" results/summary.md results/index.html &&
	make --no-print-directory verify-all KVERIFY="$TMP/kvna" SKIP=build,kabi,selftests,boot > "$TMP/out" 2>&1 &&
	grep -q "^kverify: summary: results/summary.md, results/index.html (2 targets)$" "$TMP/out" &&
	$PY - results/$T/report.json "results/$NA/report.json" <<-\PY &&
	import json, sys
	t, na = (json.load(open(f)) for f in sys.argv[1:])
	skip = [s["name"] for s in t["steps"] if s["status"] == "SKIP"]
	assert skip == ["build", "kabi", "selftests", "boot"], skip
	assert na["na_reason"] and [s["status"] for s in na["steps"]].count("N-A") >= 9, na["steps"]
	PY
	render results/index.html "$TMP/dom6" &&
	dom "$TMP/dom6" "results/$NA/report.json" results/$T/report.json ||
		{ tail -n 30 "$TMP/out"; false; }
'

# The mutant: a summary that shows a SKIP as PASS.
mkdir -p "$TMP/mut2" && cp -a Makefile tools build "$TMP/mut2/"
sed -i 's/xml_escape(h, s->status);/xml_escape(h, strcmp(s->status, "SKIP") ? s->status : "PASS");/' "$TMP/mut2/tools/summary.c"
test_expect_success 'a summary that shows a SKIP as PASS fails that check' '
	grep -q "\"SKIP\") ? s->status : \"PASS\"" "$TMP/mut2/tools/summary.c" &&
	make -s -C "$TMP/mut2" build/kverify > "$TMP/out" 2>&1 &&
	"$TMP/mut2/build/kverify" summary > "$TMP/out" 2>&1 &&
	render results/index.html "$TMP/dom7" &&
	! dom "$TMP/dom7" "results/$NA/report.json" results/$T/report.json > "$TMP/why" 2>&1 &&
	cat "$TMP/why" && grep -q "AssertionError: (.build., .PASS " "$TMP/why"
'
[ -z "$NA" ] || rm -rf "results/$NA"
./build/kverify summary > /dev/null 2>&1

test_expect_success 'a report that is no JSON: exit 2 naming it and the byte, the other targets still shown' '
	mkdir -p results/broken && printf "{\"steps\": [" > results/broken/report.json &&
	{ ./build/kverify summary > "$TMP/out" 2>&1; rc=$?; } ; cat "$TMP/out"; rm -rf results/broken
	[ $rc = 2 ] && grep -q "^kverify: results/broken/report.json: byte [0-9]*: " "$TMP/out" &&
	grep -q "^| $T | \[PASS" results/summary.md && grep -q "^| broken | unreadable: " results/summary.md
'

# The sweep's matrix: results/sweep/sweep.json as kverify sweep writes it
# (tools/sweep_report.c's fields), two versions, one failing with markup.
mkdir -p results/sweep
$PY - results/sweep/sweep.json <<-\PY
import json, sys
st = lambda n, s, r: {"name": n, "status": s, "seconds": 1.5, "reason": r}
json.dump({"headline": "x", "passed": False, "versions": [
    {"package": "linux-source-7.2", "version": "7.2.1-1", "suites": ["trixie"], "passed": True,
     "steps": [st("fetch", "PASS", "cached"), st("apply", "PASS", "6 patches")]},
    {"package": "linux-source-7.3", "version": "7.3.4-1", "suites": ["trixie"], "passed": False,
     "steps": [st("fetch", "PASS", "cached"), st("apply", "FAIL", "<script>document.title='sweep'</script> hunk 2 FAILED")]}]},
    open(sys.argv[1], "w"))
PY
test_expect_success 'the sweep matrix: a row per version, each step status, its markup text' '
	./build/kverify summary > "$TMP/out" 2>&1 && cat "$TMP/out" &&
	grep -q "(1 targets, the sweep)$" "$TMP/out" &&
	render results/index.html "$TMP/dom4" && dom "$TMP/dom4" results/$T/report.json &&
	$PY - "$TMP/dom4.versions" <<-\PY &&
	import json, sys
	v = json.load(open(sys.argv[1]))
	t = [[c["text"] for c in row] for row in v]
	print(t)
	assert len(v) == 2 and [c[:8] for c in t[0]] == ["PASS 1.5", "PASS 1.5"], t
	assert t[1][1].startswith("FAIL 1.5s<script>document.title=") and t[1][1].endswith("FAILED"), t
	PY
	grep -q "^| linux-source-7.3 7.3.4-1 | PASS 1.5s | FAIL 1.5s |$" results/summary.md
'
rm -rf results/sweep

# kverify latency's table: written to results/latency/table.txt as it is
# printed, shown by the page and summary.md as it is; a machine= header
# with markup is text.
xz -dc tests/latency/tcg-pass-1.trace.xz |
	sed "1s/machine=.*/machine=<script>document.title=\"lat\"<\/script> \& <b>host<\/b>/" > "$TMP/lat.trace"
test_expect_success 'kverify latency writes its table to results/latency/table.txt; the page and summary.md show it as it is' '
	rm -rf results/latency &&
	./build/kverify latency "$TMP/lat.trace" > "$TMP/lat.out" &&
	cmp "$TMP/lat.out" results/latency/table.txt &&
	grep -q "^machine: <script>document.title=\"lat\"</script> & <b>host</b>$" results/latency/table.txt &&
	./build/kverify summary > "$TMP/out" 2>&1 && cat "$TMP/out" &&
	grep -q "(1 targets, the latency table)$" "$TMP/out" &&
	render results/index.html "$TMP/dom5" && dom "$TMP/dom5" results/$T/report.json &&
	cmp "$TMP/dom5.latency" results/latency/table.txt &&
	sed -n "/^## The latency table/,\$p" results/summary.md | sed -n "s/^    //p" > "$TMP/lat.md" &&
	cmp "$TMP/lat.md" results/latency/table.txt
'
rm -rf results/latency

# fits OUT COLS: every step row of the table in OUT within COLS
# characters, the sim's cut with "…", the whole reason in report.json.
fits() {
	$PY - "$1" "$2" results/$T/report.json <<-\PY
	import json, sys
	out = open(sys.argv[1], encoding="utf-8").read().replace("\r", "").split("\n")
	rows = [l for l in out if l.startswith("  ") and l.split()[:1] and l.split()[0] in
	        ("fetch", "tree", "apply", "sim", "checkpatch", "cocci", "config", "build", "kabi", "selftests", "boot")]
	sim = [l for l in rows if l.split()[0] == "sim"]
	full = [s["reason"] for s in json.load(open(sys.argv[3]))["steps"] if s["name"] == "sim"][0]
	print(len(rows), "rows, widest", max(map(len, rows)), "; report.json's sim reason", len(full))
	assert len(rows) == 11 and len(full) > int(sys.argv[2]), rows
	assert max(map(len, rows)) <= int(sys.argv[2]), max(map(len, rows))
	assert sim[0].endswith("\u2026") and sim[0][30:-1] in full, sim
	PY
}
test_expect_success 'on a terminal of 100 columns the table fits, reasons cut with "…"; into a file they stay whole' '
	script -qec "stty cols 100; ./build/kverify verify --skip build,kabi,selftests,boot $T" /dev/null > "$TMP/tty" 2>&1 &&
	fits "$TMP/tty" 100 &&
	./build/kverify verify --skip build,kabi,selftests,boot $T > "$TMP/file" 2>&1 &&
	! fits "$TMP/file" 100 &&
	grep -qF "$(json results/$T/report.json "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"sim\"][0]")" "$TMP/file"
'
done_testing
