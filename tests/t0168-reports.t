#!/bin/bash
# report.json, junit.xml and the terminal with hostile bytes, and what the
# reports say: a reject with 0xFF and ESC gives valid UTF-8 JSON and XML
# (U+FFFD for the invalid byte, ESC escaped) and no raw ESC on the terminal;
# junit.xml validates against the Jenkins xunit JUnit schema (errors,
# times); report.json has its schema version, times, tool versions,
# relative log paths; a failure that is not the patch's is ERROR, not FAIL.
# A tiny dir: tree, no kernel: seconds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

PY=/usr/bin/python3
QUICK=sim,checkpatch,cocci,config,build,selftests,boot
plan 12
copy=$TMP/repo
repo_copy "$copy"
esc_fixture "$copy"
# A deb: target, the fetch step alone (from the cache): the package and
# the version apt has for it, "~" and all (the cache key has "_").
D=${KVERIFY_REPORT_DEB_TARGET:-6.12}
if ls -d "$SOURCES"/src/deb-linux-source-$D-* > /dev/null 2>&1; then
	"$KVERIFY" --results "$TMP/deb" verify --skip tree,apply,sim,checkpatch,cocci,config,build,selftests,boot $D > "$TMP/out" 2>&1
	test_expect_success "$D: package name and Debian version as apt has it ($(json "$TMP/deb/$D/report.json" 'r["package"]["version"]' 2> /dev/null))" - <<\EOT
	$PY -c 'import json, re, sys
r = json.load(open(sys.argv[1]))
p = r["package"]
assert p["name"] == "linux-source-" + sys.argv[2], p
assert r["source_key"] == "deb-%s-%s" % (p["name"], re.sub(r"[^A-Za-z0-9.-]", "_", p["version"])), (p, r["source_key"])
assert re.fullmatch(r"[0-9][A-Za-z0-9.+~:-]*", p["version"]) and "_" not in p["version"], p' "$TMP/deb/$D/report.json" $D
EOT
else
	skip "package and Debian version" "no $D source in the cache"
fi

export KVERIFY_CACHE=$TMP/cache
R=$copy/results/esc

(cd "$copy" && ./build/kverify --list k.list verify --skip $QUICK esc) > "$TMP/out" 2>&1
rc=$?
test_expect_success "a reject with 0xFF and ESC fails the apply step (exit $rc)" '
	tail -n 20 "$TMP/out" &&
	[ $rc = 1 ] && [ "$(step_status $R/report.json apply)" = FAIL ]
'

test_expect_success "report.json is UTF-8 JSON: the 0xFF byte is U+FFFD, ESC is \\u001b" - <<\EOT
$PY -c 'import json, sys
r = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
d = [s["detail"] for s in r["steps"] if s["name"] == "apply"][0]
assert "int \ufffd\x1b[31mred;" in d, d' $R/report.json
EOT

test_lazy_prereq XMLLINT 'command -v xmllint'
test_expect_success XMLLINT "junit.xml validates against the JUnit schema of Jenkins' xunit (tests/junit/junit.xsd)" '
	xmllint --noout --schema tests/junit/junit.xsd $R/junit.xml
'
test_expect_success 'junit.xml: errors and failures counted, the reject'\''s bytes replaced, real step times' - <<\EOT
$PY -c 'import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()[0]
assert t.get("errors") == "0" and t.get("failures") == "1", t.attrib
f = [c for c in t if c.get("name") == "apply"][0][0]
assert f.tag == "failure" and "int \ufffd\ufffd[31mred;" in f.text, f.text
assert float([c for c in t if c.get("name") == "apply"][0].get("time")) > 0' $R/junit.xml
EOT

test_expect_success 'the terminal gets valid UTF-8 and no raw ESC (shown as \x1b)' - <<\EOT
$PY -c 'import sys
b = open(sys.argv[1], "rb").read()
b.decode("utf-8", "strict")
assert b"\x1b" not in b and "\\x1b[31mred" in b.decode()' "$TMP/out"
EOT

version=$("$KVERIFY" --version)
test_expect_success 'report.json: schema 2, start and end times, kverify/compiler/tool versions, logs relative to results/esc' - <<\EOT
$PY -c 'import json, os, sys, datetime
r = json.load(open(sys.argv[1]))
assert r["schema"] == 2
t0 = datetime.datetime.strptime(r["started"], "%Y-%m-%dT%H:%M:%SZ")
t1 = datetime.datetime.strptime(r["finished"], "%Y-%m-%dT%H:%M:%SZ")
assert t0 <= t1 and r["seconds"] == (t1 - t0).seconds
assert "kverify " + r["tools"]["kverify"] == sys.argv[3], (r["tools"], sys.argv[3])
assert r["tools"]["compiler"].startswith("gcc"), r["tools"]
assert r["tools"]["quilt"] and r["tools"]["make"].startswith("GNU Make")
for s in r["steps"]:
    assert not os.path.isabs(s["log"]) and s["log"].startswith("logs/"), s["log"]
assert os.path.isfile(os.path.join(sys.argv[2], [s["log"] for s in r["steps"] if s["name"] == "apply"][0]))
assert r["kernel_release"] is None and r["package"] is None' $R/report.json $R "$version"
EOT

test_expect_success 'report.json: each step'"'"'s CPU time, its own and its children'"'"'s: 0 for a step that did not run, more for quilt'"'"'s apply, never more than its wall time on every core' '
	$PY -c "import json, os, sys
r = json.load(open(sys.argv[1]))
for s in r[\"steps\"]:
    c = s[\"cpu_seconds\"]
    assert isinstance(c, float) and 0 <= c <= s[\"seconds\"] * os.cpu_count() + 0.01, s
    assert s[\"status\"] != \"SKIP\" or c == 0, s
apply = [s for s in r[\"steps\"] if s[\"name\"] == \"apply\"][0]
assert apply[\"cpu_seconds\"] > 0, apply
print(*[(s[\"name\"], s[\"cpu_seconds\"]) for s in r[\"steps\"]])" $R/report.json
'

# ERROR: the source, the machine or a tool failed, not the patch.
(cd "$copy" && ./build/kverify --list k.list verify --skip $QUICK notree) > "$TMP/out" 2>&1
rc=$?
R2=$copy/results/notree
test_expect_success "a source that is no kernel tree is an ERROR, not a FAIL, and the run fails (exit $rc)" - <<\EOT
	tail -n 20 "$TMP/out" &&
	[ $rc = 3 ] && [ "$(step_status $R2/report.json fetch)" = ERROR ] &&
	[ "$(json $R2/report.json 'r["passed"]')" = False ]
EOT
test_expect_success 'junit.xml: the ERROR is an <error>, counted in errors="1"' - <<\EOT
$PY -c 'import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()[0]
assert t.get("errors") == "1" and t.get("failures") == "0", t.attrib
assert [c for c in t if c.get("name") == "fetch"][0][0].tag == "error"' $R2/junit.xml
EOT
test_expect_success 'the table says ERROR' - <<\EOT
	grep -q '^  fetch       ERROR' "$TMP/out"
EOT

bin=$TMP/bin
mkdir -p "$bin"
cp -s /usr/bin/* "$bin/" 2> /dev/null
rm -f "$bin/quilt"
test_expect_success 'a missing tool (quilt) is an ERROR' '
	(cd "$copy" && PATH=$bin ./build/kverify --list k.list verify --skip $QUICK esc) > "$TMP/out" 2>&1
	st=$? && tail -n 20 "$TMP/out" && echo "exit $st" &&
	[ "$(step_status $R/report.json apply)" = ERROR ]
'

done_testing
