#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
check.py FILE: FILE must be valid KCIDB I/O data of schema v4.3, checked
against what the published schema (kernelci/kcidb-io, v04_03.py) requires,
written out here because no KCIDB validator package is installable on this
machine: the version, the top-level arrays, each object's allowed
properties (additionalProperties is false), required properties, the id,
origin, path and status patterns, property types, RFC 3339 times,
log_excerpt's maxLength, and that every build and test refers to an
object in the data.  Exit 0, or 1 naming each violation.
"""
import datetime
import json
import re
import sys

ORIGIN = r"[a-z0-9_]+"
ORIGIN_ID = ORIGIN + r":.*"
STATUS = {"FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP"}
S, N, B, O, L = "string", "number", "boolean", "object", "list"
RESOURCE_LIST = L
SCHEMA = {
    "checkouts": ({
        "_timestamp": S, "id": S, "origin": S, "tree_name": S,
        "git_repository_url": S, "git_commit_hash": S, "git_commit_name": S,
        "git_repository_branch": S, "patchset_files": RESOURCE_LIST,
        "patchset_hash": S, "message_id": S, "comment": S, "start_time": S,
        "contacts": L, "log_url": S, "log_excerpt": S, "valid": B, "misc": O,
    }, ["id", "origin"]),
    "builds": ({
        "_timestamp": S, "checkout_id": S, "id": S, "origin": S,
        "comment": S, "start_time": S, "duration": N, "architecture": S,
        "command": S, "compiler": S, "input_files": RESOURCE_LIST,
        "output_files": RESOURCE_LIST, "config_name": S, "config_url": S,
        "log_url": S, "log_excerpt": S, "valid": B, "misc": O,
    }, ["checkout_id", "id", "origin"]),
    "tests": ({
        "_timestamp": S, "build_id": S, "id": S, "origin": S,
        "environment": O, "path": S, "comment": S, "log_url": S,
        "log_excerpt": S, "status": S, "waived": B, "start_time": S,
        "duration": N, "output_files": RESOURCE_LIST, "misc": O,
    }, ["build_id", "id", "origin"]),
}
TYPES = {S: str, N: (int, float), B: bool, O: dict, L: list}


def check(data):
    bad = []
    if not isinstance(data, dict):
        return ["top level is not an object"]
    if data.get("version") != {"major": 4, "minor": 3}:
        bad.append("version is %r, not 4.3" % data.get("version"))
    for key in data:
        if key not in ("version", "checkouts", "builds", "tests"):
            bad.append("unknown top-level property %r" % key)
    ids = {k: {o.get("id") for o in data.get(k, []) if isinstance(o, dict)}
           for k in SCHEMA}
    for kind, (props, required) in SCHEMA.items():
        for i, obj in enumerate(data.get(kind, [])):
            where = "%s[%d]" % (kind, i)
            for r in required:
                if r not in obj:
                    bad.append("%s: required %r missing" % (where, r))
            for k, v in obj.items():
                if k not in props:
                    bad.append("%s: property %r not allowed" % (where, k))
                elif isinstance(props[k], str) and props[k] in TYPES and (
                        not isinstance(v, TYPES[props[k]]) or
                        (props[k] == N and isinstance(v, bool))):
                    bad.append("%s: %r is not a %s" % (where, k, props[k]))
            for k in ("id", "checkout_id", "build_id"):
                if k in obj and not re.fullmatch(ORIGIN_ID, str(obj[k])):
                    bad.append("%s: %s %r is not ORIGIN:..." % (where, k, obj[k]))
            if "origin" in obj and not re.fullmatch(ORIGIN, str(obj["origin"])):
                bad.append("%s: origin %r" % (where, obj["origin"]))
            if "status" in obj and obj["status"] not in STATUS:
                bad.append("%s: status %r" % (where, obj["status"]))
            if "path" in obj and not re.fullmatch(r"[.a-zA-Z0-9_-]*", str(obj["path"])):
                bad.append("%s: path %r" % (where, obj["path"]))
            if "architecture" in obj and not re.fullmatch(r"[a-z0-9_]*", obj["architecture"]):
                bad.append("%s: architecture %r" % (where, obj["architecture"]))
            if len(str(obj.get("log_excerpt", ""))) > 16384:
                bad.append("%s: log_excerpt longer than 16384" % where)
            if "start_time" in obj:
                try:
                    t = datetime.datetime.fromisoformat(obj["start_time"])
                    assert t.tzinfo is not None
                except (ValueError, AssertionError):
                    bad.append("%s: start_time %r is not RFC 3339" % (where, obj["start_time"]))
            if "environment" in obj and set(obj["environment"]) - {"comment", "misc"}:
                bad.append("%s: environment has other properties" % where)
            if kind == "builds" and obj.get("checkout_id") not in ids["checkouts"]:
                bad.append("%s: checkout %r not in the data" % (where, obj.get("checkout_id")))
            if kind == "tests" and obj.get("build_id") not in ids["builds"]:
                bad.append("%s: build %r not in the data" % (where, obj.get("build_id")))
        if len(ids[kind]) != len(data.get(kind, [])):
            bad.append("%s: ids are not unique" % kind)
    return bad


bad = check(json.load(open(sys.argv[1], encoding="utf-8")))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
