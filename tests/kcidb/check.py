#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
check.py FILE: FILE must be valid KCIDB I/O data of schema v4.3: valid
against kcidb-v04_03.schema.json beside this file (the published schema,
kernelci/kcidb-io's v04_03.py, as JSON Schema: kcidb-v04_03.schema.txt
says where from) by python3-jsonschema, and besides what a JSON Schema
cannot say: every time RFC 3339 with a zone (jsonschema's date-time check
needs a package Debian does not install with it), ids unique, and every
build and test referring to an object in the data.  Exit 0, or 1 naming
each violation.
"""
import datetime
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "kcidb-v04_03.schema.json")
TIMES = ("start_time", "_timestamp")


def check(data):
    schema = json.load(open(SCHEMA, encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    bad = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)",
                       e.message)
           for e in sorted(v.iter_errors(data), key=lambda e: list(map(str, e.path)))]
    if not isinstance(data, dict):
        return bad
    ids = {k: [o.get("id") for o in data.get(k, []) if isinstance(o, dict)]
           for k in ("checkouts", "builds", "tests")}
    for kind, refs in (("checkouts", None), ("builds", ("checkout_id", "checkouts")),
                       ("tests", ("build_id", "builds"))):
        if len(set(ids[kind])) != len(ids[kind]):
            bad.append("%s: ids are not unique" % kind)
        for i, obj in enumerate(data.get(kind, [])):
            if not isinstance(obj, dict):
                continue
            where = "%s/%d" % (kind, i)
            for key in TIMES:
                if not isinstance(obj.get(key), str):
                    continue
                try:
                    t = datetime.datetime.fromisoformat(obj[key])
                    assert t.tzinfo is not None
                except (ValueError, AssertionError):
                    bad.append("%s: %s %r is not RFC 3339" % (where, key, obj[key]))
            if refs and obj.get(refs[0]) not in ids[refs[1]]:
                bad.append("%s: %s %r not in the data" % (where, refs[0], obj.get(refs[0])))
    return bad


bad = check(json.load(open(sys.argv[1], encoding="utf-8")))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
