#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
compare.py LAVA-LOG REPORT.json: what lava-run recorded (the "results"
lines of its log: one per test case, pass/fail/skip), or what a LAVA
server recorded (LAVA-LOG its results as its REST API exports them,
/api/v0.2/jobs/ID/yaml/: a YAML list of test cases, each with its suite,
name and result; tools/lava/lava-server-local results), against kverify's
report.json of a boot of the same kernel and initramfs.  Every test of the
report must be a LAVA test case of the job's monitor (the KTAP name with
non-word characters as "_"), with the same result (PASS pass, FAIL fail,
SKIP skip), and LAVA must record no case of the monitor the report lacks;
LAVA's own job result must be pass.  Exit 0 when they agree, 1 with the
differences.
"""
import json
import re
import sys

import yaml

log, report = sys.argv[1], sys.argv[2]
lava, job = {}, None
text = open(log).read()
try:
    export = yaml.safe_load(text)
except yaml.YAMLError:
    export = None
if not (isinstance(export, list) and export and
        all(isinstance(c, dict) and "suite" in c for c in export)):
    export = None
for case in export or []:
    # the server's own records: suite "lava" has its case "job"
    if case["suite"] == "lava":
        if case["name"] == "job":
            job = case["result"]
        continue
    lava[case["name"]] = case["result"]
for line in [] if export else text.splitlines():
    # lava-run's lines, or a server's log ("- {...}" each)
    line = line.strip()
    if line.startswith("- "):
        line = line[2:]
    if not line.startswith("{") or '"lvl": "results"' not in line:
        continue
    msg = yaml.safe_load(line)["msg"]
    if msg.get("definition") == "lava":
        if msg.get("case") == "job":
            job = msg.get("result")
        continue
    lava[msg["case"]] = msg["result"]

r = json.load(open(report))
ours = {re.sub(r"\W+", "_", t["name"].strip().lower()): t["status"].lower()
        for t in r["tests"]}
ours = {k: {"pass": "pass", "fail": "fail", "skip": "skip"}.get(v, v)
        for k, v in ours.items()}
bad = []
if job != "pass":
    bad.append("LAVA's job result: %s" % job)
for k, v in ours.items():
    if lava.get(k) != v:
        bad.append("%s: kverify %s, LAVA %s" % (k, v, lava.get(k, "nothing")))
for k, v in lava.items():
    if k not in ours:
        bad.append("%s: LAVA %s, not in kverify's report" % (k, v))
for line in bad:
    print(line)
print("%d test cases: LAVA %s, kverify %s" % (
    len(lava), " ".join("%s=%d" % (s, list(lava.values()).count(s))
                        for s in ("pass", "fail", "skip")),
    " ".join("%s=%d" % (s, list(ours.values()).count(s))
             for s in ("pass", "fail", "skip"))))
sys.exit(1 if bad else 0)
