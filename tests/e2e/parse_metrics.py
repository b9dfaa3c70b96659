#!/usr/bin/python3
"""Reads a Prometheus text exposition (format 0.0.4) on stdin and parses it with the Prometheus
client's own parser (Debian: python3-prometheus-client). Prints one line per family,
"family NAME TYPE", and one per sample, "SAMPLE{k=v,...} VALUE" with the labels sorted, for the
e2e tests (tests/e2e/metrics_test.cpp) to compare. Exit 77 when the parser is not installed, 1
when the text does not parse."""
import sys

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("python3-prometheus-client is not installed", file=sys.stderr)
    sys.exit(77)

try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        print(f"family {family.name} {family.type}")
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            print(f"{s.name}{{{labels}}} {s.value!r}")
except Exception as error:  # the parser raises ValueError and others for bad input
    print(f"does not parse: {error}", file=sys.stderr)
    sys.exit(1)
