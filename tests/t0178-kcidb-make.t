#!/bin/bash
# make verify FORMAT=kcidb writes results/<target>/kcidb.json, as
# "kverify verify --format kcidb" does, valid against KCIDB's schema v4.3
# (tests/kcidb/check.py: the published schema as JSON Schema, by
# python3-jsonschema); a step that found its work up to date reports no
# duration, only its reason and misc.up_to_date; the checkout carries the
# Message-Id of the posted series (series/message-id, written by make send
# SEND=1), and report.json and KCIDB both name the series' revision,
# change-id and KCIDB patchset hash.  Cost: fetch, tree, apply and
# checkpatch of the cached 7.3 source, three times.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_KCIDB_TARGET:-7.3}
QUICK=sim,cocci,config,build,kabi,selftests,boot
PY=/usr/bin/python3
plan 9
K=results/$T/kcidb.json
R=results/$T/report.json
cached_source $T > /dev/null || exit 1
series=$(target_series $T)
rm -f "$KVERIFY_CACHE/memo/$T.checkpatch" series/message-id

test_expect_success "make verify KERNEL=$T FORMAT=kcidb writes kcidb.json, valid KCIDB v4.3" '
	make --no-print-directory verify KERNEL=$T FORMAT=kcidb SKIP=$QUICK > "$TMP/out" 2>&1 &&
	test -s $K && $PY tests/kcidb/check.py $K
'
cp $K "$TMP/make.json"
test_expect_success 'it is what build/kverify verify --format kcidb writes: the same checkout, build and tests' - <<\EOT
	./build/kverify verify --format kcidb --skip $QUICK $T > "$TMP/out" 2>&1 &&
	$PY - "$TMP/make.json" $K <<-\PY
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:])
	def shape(d):
	    c = dict(d["checkouts"][0]); c.pop("start_time")
	    bl = {k: v for k, v in d["builds"][0].items() if k not in ("id", "start_time")}
	    return c, bl, [(t["path"], t["status"]) for t in d["tests"]]
	assert shape(a) == shape(b), (shape(a), shape(b))
	print(shape(a)[0]["id"])
	PY
EOT
test_expect_success 'make verify without FORMAT= leaves no kcidb.json' '
	make --no-print-directory verify KERNEL=$T SKIP=$QUICK > "$TMP/out" 2>&1 &&
	test -s $R && ! test -e $K
'

# The third run finds checkpatch up to date (its PASS kept): no duration.
make --no-print-directory verify KERNEL=$T FORMAT=kcidb SKIP=$QUICK > "$TMP/out" 2>&1
test_expect_success 'a step up to date has no duration in KCIDB, its reason and misc.up_to_date; one that ran has its duration' - <<\EOT
	$PY tests/kcidb/check.py $K &&
	$PY - $K $R <<-\PY
	import json, sys
	d, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	t = {x["path"]: x for x in d["tests"]}
	cp, ap = t["kverify.checkpatch"], t["kverify.apply"]
	print(cp.get("duration"), cp.get("misc"), cp["comment"][:40])
	assert [s["reason"] for s in r["steps"] if s["name"] == "checkpatch"][0].startswith("up to date")
	assert "duration" not in cp and cp["misc"] == {"up_to_date": True}, cp
	assert cp["status"] == "PASS" and cp["comment"].startswith("up to date")
	assert isinstance(ap.get("duration"), float) and "misc" not in ap, ap
	PY
EOT

# What names the series: its revision, change-id and KCIDB's patchset
# hash (the sha256 of the patches' newline-terminated sha256s, in order).
want=$(cd "$series" && sha256sum $(grep -v '^#' series) | cut -c-64 | sha256sum | cut -c-64)
test_expect_success "report.json and KCIDB name the revision ($(cat $series/revision 2>/dev/null)), change-id and patchset hash; no message_id before a posting" - <<\EOT
	$PY - $K $R "$series" "$want" <<-\PY
	import json, sys
	d, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
	rev = int(open(sys.argv[3] + "/revision").read())
	cid = open(sys.argv[3] + "/change-id").read().strip()
	c = d["checkouts"][0]
	assert (r["series_revision"], r["change_id"], r["patchset_hash"]) == (rev, cid, sys.argv[4]), r
	assert r["message_id"] is None and "message_id" not in c, c
	assert c["patchset_hash"] == sys.argv[4]
	assert (c["misc"]["series_revision"], c["misc"]["change_id"]) == (rev, cid), c
	b = d["builds"][0]["misc"]
	assert b["kverify_version"] == r["tools"]["kverify"] and b["kverify_version"] not in ("", "unknown"), b
	assert c["misc"]["source_version"] == r["package"]["version"], (c, r["package"])
	PY
EOT

# Posted: make send SEND=1 writes the cover's Message-Id (without <>) into
# series/message-id.  An id at this machine's own name (test_identity).
test_identity
msgid="kverify-t0178-$$@${sender_email#*@}"
echo "$msgid" > "$series/message-id"
test_expect_success "posted: KCIDB's message_id and report.json's are the cover's ($msgid)" - <<\EOT
	make --no-print-directory verify KERNEL=$T FORMAT=kcidb SKIP=$QUICK > "$TMP/out" 2>&1 &&
	$PY tests/kcidb/check.py $K &&
	[ "$(json $K 'r["checkouts"][0]["message_id"]')" = "$msgid" ] &&
	[ "$(json $R 'r["message_id"]')" = "$msgid" ]
EOT
echo "<$msgid>" > "$series/message-id"
test_expect_success 'written as <id@host>: the same id, without the brackets' '
	./build/kverify verify --format kcidb --skip $QUICK $T > "$TMP/out" 2>&1 &&
	[ "$(json $K "r[\"checkouts\"][0][\"message_id\"]")" = "$msgid" ]
'
bad=
for v in "two words@host" "no-at-sign" "<unclosed@host" "a@b@c"; do
	printf '%s\n' "$v" > "$series/message-id"
	make --no-print-directory verify KERNEL=$T FORMAT=kcidb SKIP=$QUICK > "$TMP/out" 2>&1
	rc=$?
	{ [ $rc = 2 ] && grep -q "$series/message-id:1: not a Message-Id (id@host): .$v.$" "$TMP/out"; } ||
		{ cat "$TMP/out"; bad="$bad [$v: exit $rc]"; }
done
rm -f "$series/message-id"
test_expect_success "a series/message-id that is no Message-Id: exit 2 naming file:line${bad:+; taken:$bad}" '
	[ -z "$bad" ]
'
test_expect_success 'FORMAT=github: exit 2, one line naming FORMAT= and the format there is' '
	make --no-print-directory verify KERNEL=$T FORMAT=github > "$TMP/out" 2>&1
	rc=$?; cat "$TMP/out"
	[ $rc = 2 ] && [ "$(grep -c "^kverify: " "$TMP/out")" = 1 ] &&
	grep -q "^kverify: FORMAT=github: the one format besides report.json and junit.xml is kcidb" "$TMP/out"
'
done_testing
