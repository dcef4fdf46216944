#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Replay a guest console log through lava-dispatcher's own code, as a LAVA
worker would run the job definition: the boot action's wait for its
prompts (LoginAction without auto_login: LAVA's kernel-message patterns
plus the job's prompts), then the test action's monitors
(TestMonitorAction, with the job's start, end, pattern and fixupdict).
The log is "played" by a child process through lava_dispatcher.shell's
ShellCommand/ShellSession, the pexpect connection LAVA uses for a serial
console.  Nothing of LAVA's matching is re-implemented here.

usage: replay.py JOB.yaml CONSOLE.log [--hang SECONDS]
Prints JSON: {"boot": ..., "results": {case: result}, "measurements":
{case: [measurement, units]}, "status": ..., "errors": [...],
"exception": ...}.
"""
import json
import logging
import sys
import time

import yaml
from lava_common.timeout import Timeout
from lava_dispatcher.actions.boot import LoginAction
from lava_dispatcher.actions.test.monitor import TestMonitorAction
from lava_dispatcher.shell import ShellCommand, ShellSession


class Logger:
    """What LAVA's YAMLLogger receives; results are kept, the rest dropped."""

    def __init__(self):
        self.results_seen = []
        self.lines = []

    def results(self, res, *args, **kw):
        self.results_seen.append(res)

    def target(self, line, *args, **kw):
        self.lines.append(line)

    def __getattr__(self, name):
        return lambda *args, **kw: None


class Device(dict):
    def get_constant(self, *args, **kw):
        return None


class Job:
    def __init__(self):
        self.device = Device(actions={"boot": {"methods": {}}})
        self.context = {}
        self.protocols = []


def main():
    job_file, log = sys.argv[1], sys.argv[2]
    hang = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--hang" else 0
    definition = yaml.safe_load(open(job_file))
    boot = next(a["boot"] for a in definition["actions"] if "boot" in a)
    test = next(a["test"] for a in definition["actions"] if "test" in a)
    logging.getLogger("dispatcher").addHandler(logging.NullHandler())

    job = Job()
    logger = Logger()
    # A serial console: the log, then (for a hang) silence.
    cmd = "/bin/sh -c 'cat \"$0\"; sleep %d' %s" % (hang, log)
    # The monitor's silence timeout (pexpect's): 2 s, shorter than a hang.
    raw = ShellCommand(cmd, Timeout("replay", duration=2 if hang else 30),
                       logger=logger)
    conn = ShellSession(job, raw)
    out = {"boot": None, "results": {}, "measurements": {}, "status": None,
           "errors": [], "exception": None}
    end = time.monotonic() + hang + 30

    login = LoginAction()
    login.job = job
    login.logger = logger
    login.parameters = dict(boot, namespace="common")
    login.level = "2.1"
    test_action = TestMonitorAction()
    test_action.job = job
    test_action.logger = logger
    test_action.parameters = dict(test, namespace="common")
    test_action.level = "3.1"
    try:
        login.run(conn, end)
        out["boot"] = login.results
        out["boot_errors"] = login.errors
        test_action.run(conn, end)
    except Exception as exc:  # what LAVA would report for the job
        out["exception"] = "%s: %s" % (type(exc).__name__, exc)
    for r in logger.results_seen:
        if r.get("definition") == test["monitors"][0]["name"].lower():
            if r["case"] in out["results"]:
                out["results"][r["case"]] += "," + r["result"]
            else:
                out["results"][r["case"]] = r["result"]
            if "measurement" in r:
                out["measurements"][r["case"]] = [float(r["measurement"]),
                                                  r.get("units")]
    out["status"] = test_action.results.get("status")
    out["errors"] = test_action.errors
    raw.close(force=True)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


main()
