#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# trace_forms.py — the tracer's switches and output forms, through the environment a
# program sees: text and JSON lines (each parsed by Python's json), filters that keep
# or drop names, and the list length limit. Runs `test_trace --scenario` under each.
import json
import os
import re
import subprocess
import sys
import tempfile

exe = sys.argv[1]
failures = []


def run(**env):
    with tempfile.NamedTemporaryFile(prefix="trace-", suffix=".txt", delete=False) as f:
        path = f.name
    e = dict(os.environ)
    for k in ("XWIRE_TRACE_FORMAT", "XWIRE_TRACE_FILTER", "XWIRE_TRACE_MAXLIST"):
        e.pop(k, None)
    e["XWIRE_TRACE"] = path
    e.update(env)
    subprocess.run([exe, "--scenario"], env=e, check=True, timeout=60)
    with open(path) as f:
        lines = f.read().splitlines()
    os.unlink(path)
    return lines


def expect(cond, what, lines):
    if not cond:
        failures.append(what + "\n  " + "\n  ".join(lines))


head = re.compile(r"^\d+ c\d+ #\d+ [<>] (request|reply|error|event) \S+")
text = run()
expect(all(head.match(l) for l in text), "text: every line has time, connection, sequence, direction, kind, name", text)
expect(any(' > request InternAtom only_if_exists=false name_len=8 name="WM_STATE"' in l for l in text),
       "text: InternAtom", text)
expect(any("< reply InternAtom atom=WM_STATE(300)" in l for l in text), "text: its reply, the atom by name", text)
expect(any("< error Window bad_value=0x1234 request=MapWindow(8.0)" in l for l in text), "text: the error", text)
expect(sum(" request NoOperation" in l for l in text) == 3, "text: three NoOperation", text)
expect(any("points=[40]{{x=0 y=0} {x=1 y=-1}" in l and "...}" in l for l in text), "text: a long list shortened", text)

js = run(XWIRE_TRACE_FORMAT="json")
objs = []
for l in js:
    try:
        objs.append(json.loads(l))
    except ValueError as e:
        failures.append("json: line does not parse (%s): %s" % (e, l))
expect(len(objs) == len(text), "json: one object per text line", js)
for o in objs:
    expect(set(("t", "conn", "seq", "dir", "kind", "name", "fields")) <= set(o), "json: keys of %r" % o, [])
ia = [o for o in objs if o.get("name") == "InternAtom"]
expect(len(ia) == 2 and ia[0]["fields"]["name"] == "WM_STATE" and ia[0]["fields"]["only_if_exists"] is False,
       "json: InternAtom's fields", js)
expect(len(ia) == 2 and ia[1]["kind"] == "reply" and ia[1]["fields"]["atom"] == "WM_STATE", "json: the reply", js)
err = [o for o in objs if o.get("kind") == "error"]
expect(len(err) == 1 and err[0]["request"] == "MapWindow" and err[0]["bad_value"] == 0x1234
       and err[0]["name"] == "Window",
       "json: the error", js)
pp = [o for o in objs if o.get("name") == "PolyPoint"]
expect(len(pp) == 1 and pp[0]["fields"]["points"][:2] == [{"x": 0, "y": 0}, {"x": 1, "y": -1}]
       and pp[0]["fields"]["points"][-1] == "...(40)", "json: the shortened list", js)

drop = run(XWIRE_TRACE_FILTER="-NoOperation")
expect(not any("NoOperation" in l for l in drop) and len(drop) == len(text) - 3, "filter -NoOperation", drop)
only = run(XWIRE_TRACE_FILTER="InternAtom")
expect(len(only) == 2 and all("InternAtom" in l for l in only), "filter InternAtom: the request and its reply", only)

short = run(XWIRE_TRACE_MAXLIST="2")
expect(any("points=[40]{{x=0 y=0} {x=1 y=-1} ...}" in l for l in short), "XWIRE_TRACE_MAXLIST=2", short)

# XWIRE_TRACE with %p: a file per process, the child forked after the parent's
# connection was traced writes its own; %% is a literal %.
with tempfile.TemporaryDirectory(prefix="trace-pid-") as d:
    e = dict(os.environ)
    for k in ("XWIRE_TRACE_FORMAT", "XWIRE_TRACE_FILTER", "XWIRE_TRACE_MAXLIST"):
        e.pop(k, None)
    e["XWIRE_TRACE"] = os.path.join(d, "t%%.%p")
    p = subprocess.Popen([exe, "--scenario-fork"], env=e)
    expect(p.wait(timeout=60) == 0, "%p: the forking scenario ran", [])
    names = sorted(os.listdir(d))
    expect(len(names) == 2 and "t%%.%d" % p.pid in names and all(n.startswith("t%.") for n in names),
           "%p: two files, one named after the parent's pid: " + " ".join(names), [])
    for n in names:
        with open(os.path.join(d, n)) as f:
            got = f.read().splitlines()
        expect(len(got) == len(text) and [l.split(" ", 2)[2] for l in got] == [l.split(" ", 2)[2] for l in text],
               "%p: " + n + " holds one scenario's lines", got)

for f in failures:
    print("FAIL:", f)
print("trace_forms: %d checks failed" % len(failures))
sys.exit(1 if failures else 0)
