#!/usr/bin/env python3
"""Validates scenarios and trace files against the JSON Schemas in this folder.

usage: validate.py FILE...   (*.json/*.yaml/*.yml: scenario; *.jsonl: every line of a trace)
Prints one line per invalid document (file:line: message) and exits 1 if there was any.
Used by the test suite and by `make schemas`.
"""
import json, os, sys
from jsonschema import Draft202012Validator

here = os.path.dirname(os.path.abspath(__file__))
def load(name):
    with open(os.path.join(here, name)) as f:
        s = json.load(f)
    Draft202012Validator.check_schema(s)
    return Draft202012Validator(s)

scenario, event = load("scenario.schema.json"), load("trace-event.schema.json")
bad = checked = 0
for path in sys.argv[1:]:
    if path.endswith(".jsonl"):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for e in event.iter_errors(json.loads(line)):
                    print(f"{path}:{n}: {e.message} at {'/'.join(map(str, e.absolute_path)) or 'top'}"); bad += 1
                checked += 1
    else:
        if path.endswith((".yaml", ".yml")):
            import yaml
            with open(path, encoding="utf-8") as f: doc = yaml.safe_load(f)
        else:
            with open(path, encoding="utf-8") as f: doc = json.load(f)
        for e in scenario.iter_errors(doc):
            print(f"{path}: {e.message} at {'/'.join(map(str, e.absolute_path)) or 'top'}"); bad += 1
        checked += 1
print(f"checked={checked} invalid={bad}")
sys.exit(1 if bad else 0)
