#!/bin/bash
# verify --format kcidb: results/<target>/kcidb.json is KCIDB I/O data of
# schema v4.3 (checkout, build, one test per step, origin kverify), checked
# by tests/kcidb/check.py against the published schema (as JSON Schema,
# tests/kcidb/kcidb-v04_03.schema.json) with python3-jsonschema; the
# checker itself rejects broken documents; the checkout id is the source
# and the patchset hash; a series without b4's tracking data is named by
# series/'s revision and change-id.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

PY=/usr/bin/python3
QUICK=sim,checkpatch,cocci,config,build,selftests,boot
plan 11
copy=$TMP/repo
repo_copy "$copy"
esc_fixture "$copy"
export KVERIFY_CACHE=$TMP/cache
K=$copy/results/esc/kcidb.json

(cd "$copy" && ./build/kverify --list k.list verify --skip $QUICK esc) > /dev/null 2>&1
test_expect_success 'without --format kcidb no kcidb.json' '
	[ ! -e $K ]
'
test_expect_success 'verify --format github is refused with exit 2' - <<\EOT
	{ (cd "$copy" && ./build/kverify --list k.list verify --format github esc) > "$TMP/out" 2>&1; krc=$?; } &&
	[ $krc = 2 ] && grep -q "^kverify: --format github: the one format besides report.json and junit.xml is kcidb" "$TMP/out"
EOT

(cd "$copy" && ./build/kverify --list k.list verify --format kcidb --skip $QUICK esc) > /dev/null 2>&1
cp $K "$TMP/kcidb.json"
test_expect_success 'a later run without --format kcidb leaves no kcidb.json of the run before' '
	[ -e "$TMP/kcidb.json" ] &&
	{ (cd "$copy" && ./build/kverify --list k.list verify --skip $QUICK esc) > /dev/null 2>&1; rc=$?; } &&
	[ $rc = 1 ] && [ ! -e $K ] &&
	{ (cd "$copy" && ./build/kverify --list k.list verify --format kcidb --skip $QUICK esc) > /dev/null 2>&1; rc=$?; } &&
	[ $rc = 1 ] && [ -e $K ]
'
test_expect_success 'a failed apply with 0xFF in its reject: kcidb.json is valid KCIDB v4.3' '
	$PY tests/kcidb/check.py $K
'
test_expect_success 'checkout invalid, apply FAIL with its reject, steps as kverify.<step>, build not run' - <<\EOT
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
t = {x["path"]: x for x in d["tests"]}
assert d["checkouts"][0]["valid"] is False and d["checkouts"][0]["origin"] == "kverify"
assert t["kverify.apply"]["status"] == "FAIL" and "\ufffd" in t["kverify.apply"]["log_excerpt"]
assert t["kverify.fetch"]["status"] == "PASS" and t["kverify.build"]["status"] == "SKIP"
steps = [s["name"] for s in json.load(open(sys.argv[2]))["steps"]]
assert sorted(t) == sorted("kverify." + s for s in steps), (sorted(t), steps)
assert "valid" not in d["builds"][0]' $K "$copy/results/esc/report.json"
EOT

# The checkout is the source and the patches: its id and patchset_hash
# (KCIDB's: the sha256 of the patches' sha256s, in order) the same on
# every run of the same pair; a build is a run's.
test_expect_success "the checkout id: the source and the patchset hash, the same each run; a build id per run" '
	cp $K "$TMP/k1.json" && sleep 1 &&
	{ (cd "$copy" && ./build/kverify --list k.list verify --format kcidb --skip $QUICK esc) > /dev/null 2>&1; true; } &&
	want=$(cd "$copy/esc" && sha256sum $(cat series) | cut -c-64 | sha256sum | cut -c-64) &&
	$PY - $K "$TMP/k1.json" "$want" "$copy/results/esc/report.json" <<-\PY
	import json, sys
	d, d1 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	c, c1, b = d["checkouts"][0], d1["checkouts"][0], d["builds"][0]
	key = json.load(open(sys.argv[4]))["source_key"]
	print(c["id"], c.get("patchset_hash"), b["id"], b["config_name"])
	assert c["patchset_hash"] == sys.argv[3], (c, sys.argv[3])
	assert c["id"] == "kverify:%s+%s" % (key, sys.argv[3][:16]), c["id"]
	assert c["id"] == c1["id"] and b["checkout_id"] == c["id"]
	assert b["id"] != d1["builds"][0]["id"], "a build id per run"
	assert b["config_name"] == "configs/kvm-guest.config", b
	PY
'
(cd "$copy" && ./build/kverify --list k.list verify --format kcidb --skip $QUICK notree) > /dev/null 2>&1
test_expect_success 'a source that is no tree: valid, and the fetch test is ERROR' - <<\EOT
	$PY tests/kcidb/check.py $copy/results/notree/kcidb.json &&
	[ "$(json $copy/results/notree/kcidb.json '[t["status"] for t in r["tests"] if t["path"] == "kverify.fetch"][0]')" = ERROR ]
EOT

# A series directory without b4's tracking data (a backport): the
# revision and change-id of the repository's series/, of which it is a
# backport; no message_id, even when series/ was posted.
test_identity
echo "kverify-t0167-$$@${sender_email#*@}" > "$copy/series/message-id"
(cd "$copy" && ./build/kverify --list k.list verify --format kcidb --skip $QUICK esc) > /dev/null 2>&1
test_expect_success "a series without revision: series/'s revision and change-id, no message_id" - <<\EOT
	$PY - $K "$copy/results/esc/report.json" "$copy/series" <<-\PY
	import json, sys
	d, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	rev = int(open(sys.argv[3] + "/revision").read())
	cid = open(sys.argv[3] + "/change-id").read().strip()
	m = d["checkouts"][0]["misc"]
	assert (r["series_revision"], r["change_id"], r["message_id"]) == (rev, cid, None), r
	assert (m["series_revision"], m["change_id"]) == (rev, cid) and "message_id" not in d["checkouts"][0], m
	PY
EOT
rm -f "$copy/series/message-id"
cp $K "$TMP/valid.json"
echo v5 > "$copy/series/revision"
test_expect_success 'a series/revision that is no number: exit 2 naming file:line' '
	{ (cd "$copy" && ./build/kverify --list k.list verify --skip $QUICK esc) > "$TMP/out" 2>&1; rc=$?; } &&
	cat "$TMP/out" && [ $rc = 2 ] && grep -q "series/revision:1: not a revision (1 to 999): .v5." "$TMP/out"
'
cp series/revision "$copy/series/revision"

# The checker can fail.
bad=
for m in 'd["tests"][0].pop("build_id")' 'd["tests"][0].update(status="BROKEN")' \
	'd["tests"][0].update(path="kverify.a b")' 'd["builds"][0].update(checkout_id="kverify:nowhere")' \
	'd.update(version={"major": 4, "minor": 4})' 'd["checkouts"][0].update(message_id="no at sign")' 'd["checkouts"][0].update(url="x")' \
	'd["tests"][0].update(start_time="yesterday")' 'd["tests"][0].update(id="Kverify:x")'; do
	$PY -c "import json, sys; d = json.load(open(sys.argv[1])); $m; json.dump(d, open(sys.argv[2], 'w'))" "$TMP/valid.json" "$TMP/m.json"
	$PY tests/kcidb/check.py "$TMP/m.json" > /dev/null 2>&1 && bad="$bad; $m"
done
test_expect_success "the checker rejects a missing build_id, a bad status, path, reference, version, property, message_id, time, id${bad}" '
	[ -z "$bad" ]
'
test_expect_success 'the checker rejects a log_excerpt over 16384 characters' - <<\EOT
	$PY -c 'import json, sys; d = json.load(open(sys.argv[1])); d["tests"][0]["log_excerpt"] = "x" * 16385; json.dump(d, open(sys.argv[2], "w"))' "$TMP/valid.json" "$TMP/m.json" &&
	! $PY tests/kcidb/check.py "$TMP/m.json" > /dev/null 2>&1
EOT
done_testing
