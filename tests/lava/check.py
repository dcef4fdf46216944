#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
check.py JOB.yaml CASE: replay tests/lava/boot.log + CASE.ktap through
lava-dispatcher (replay.py) and compare what LAVA records with the KTAP:
every top-level "ok" must be a pass, "not ok" a fail, "ok ... # SKIP" a
skip, under the KTAP name as LAVA's test case id (tolerance included); a
kernel panic must be a fail and the job must not end "passed"; a hang must
not end "passed".  Exit 0 when right, 1 with the differences.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
job, case = sys.argv[1], sys.argv[2]
ktap = open(os.path.join(here, case + ".ktap"), newline="").read()
want = {}
for line in ktap.splitlines():
    m = re.match(r"(not ok|ok) \d+ ([^#]*?)\s*(?:# (SKIP)?.*)?$", line)
    if m:
        res = "skip" if m.group(3) else "pass" if m.group(1) == "ok" else "fail"
        want[re.sub(r"\W+", "_", m.group(2).strip().lower())] = res
    elif line.startswith("Kernel panic - not syncing"):
        want[re.sub(r"\W+", "_", line.strip().lower())] = "fail"

with tempfile.NamedTemporaryFile("w", suffix=".log", newline="") as log:
    log.write(open(os.path.join(here, "boot.log"), newline="").read() + ktap)
    log.flush()
    args = [sys.executable, os.path.join(here, "replay.py"), job, log.name]
    if case == "hang":
        args += ["--hang", "6"]
    got = json.loads(subprocess.run(args, check=True, stdout=subprocess.PIPE,
                                    text=True).stdout)

bad = []
for k, v in want.items():
    g = got["results"].get(k)
    if g != v:
        bad.append("%s: KTAP says %s, LAVA recorded %s" % (k, v, g or "nothing"))
for k, v in got["results"].items():
    if k not in want:
        bad.append("%s: LAVA recorded %s, not a KTAP result" % (k, v))
if case in ("pass", "fail", "skip"):
    if got["status"] != "passed" or got["exception"]:
        bad.append("monitor did not end at KVERIFY-DONE: status %s, %s" %
                   (got["status"], got["exception"]))
elif got["status"] == "passed" and not got["exception"]:
    bad.append("a %s ends the monitor as passed" % case)
for line in bad:
    print(line)
print("LAVA: status %s, exception %s, %d results" %
      (got["status"], got["exception"], len(got["results"])))
sys.exit(1 if bad else 0)
