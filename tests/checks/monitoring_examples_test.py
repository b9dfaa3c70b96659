#!/usr/bin/python3
"""The Grafana dashboard and the Prometheus rules of docs/examples are well-formed: the dashboard
is JSON with a `name` variable and panels that each have a position and PromQL targets; the rules
file is YAML with groups of recording rules and alerts (an expression, a severity and a summary
for each alert, durations Prometheus reads); every expression's brackets balance. `promtool
check rules` runs too when it is installed. Exit 77 (skipped) without python3-yaml.
Usage: monitoring_examples_test.py EXAMPLES_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("python3-yaml is not installed: skipped")
    sys.exit(77)

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def balanced(expr):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for c in re.sub(r'"(\\.|[^"\\])*"', '""', expr):  # brackets inside strings do not count
        if c in "([{":
            stack.append(c)
        elif c in pairs:
            if not stack or stack.pop() != pairs[c]:
                return False
    return not stack


def check_dashboard(path):
    with open(path) as f:
        dash = json.load(f)
    check(dash.get("title") and dash.get("uid"), "dashboard: no title or uid")
    variables = {v["name"]: v for v in dash.get("templating", {}).get("list", [])}
    check("name" in variables, "dashboard: no `name` variable")
    panels = dash.get("panels", [])
    check(len(panels) >= 7, "dashboard: fewer than 7 panels")
    ids = [p.get("id") for p in panels]
    check(len(set(ids)) == len(ids), "dashboard: panel ids repeat")
    for p in panels:
        title = p.get("title", "?")
        check(p.get("type") and set(p.get("gridPos", {})) >= {"x", "y", "w", "h"},
              f"dashboard: panel {title}: no type or position")
        check(p.get("targets"), f"dashboard: panel {title}: no targets")
        for t in p.get("targets", []):
            check(t.get("expr") and t.get("refId"), f"dashboard: panel {title}: a target without expr")
            check(balanced(t.get("expr", "")), f"dashboard: panel {title}: unbalanced {t.get('expr')}")


def check_rules(path):
    with open(path) as f:
        rules = yaml.safe_load(f)
    groups = rules.get("groups") if isinstance(rules, dict) else None
    check(isinstance(groups, list) and groups, "rules: no groups")
    duration = re.compile(r"^([0-9]+(ms|s|m|h|d|w|y))+$")
    for g in groups or []:
        check(set(g) <= {"name", "interval", "rules", "limit"}, f"rules: group {g.get('name')}: unknown keys")
        for r in g.get("rules", []):
            kind = "alert" if "alert" in r else "record" if "record" in r else None
            what = f"rules: {r.get(kind, '?')}"
            check(kind and not ("alert" in r and "record" in r), f"{what}: neither alert nor record")
            check(isinstance(r.get("expr"), str) and balanced(r["expr"]), f"{what}: bad expr")
            if kind == "alert":
                check(set(r) <= {"alert", "expr", "for", "keep_firing_for", "labels", "annotations"},
                      f"{what}: unknown keys")
                check("severity" in r.get("labels", {}), f"{what}: no severity")
                check("summary" in r.get("annotations", {}), f"{what}: no summary")
                check("for" not in r or duration.match(str(r["for"])), f"{what}: bad for")
            elif kind == "record":
                check(re.match(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$", r["record"]), f"{what}: bad name")
    promtool = shutil.which("promtool")
    if promtool:
        result = subprocess.run([promtool, "check", "rules", path], capture_output=True, text=True)
        check(result.returncode == 0, f"rules: promtool: {result.stdout}{result.stderr}")
    else:
        print("promtool is not installed: the rules are checked for structure only")


examples = sys.argv[1]
check_dashboard(os.path.join(examples, "grafana-dashboard.json"))
check_rules(os.path.join(examples, "prometheus-alerts.yml"))
for f in failures:
    print("FAIL", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
