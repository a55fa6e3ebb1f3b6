"""`boardy-viz export --to otlp` read by the official OpenTelemetry schema: the
`opentelemetry-proto` package from PyPI parses each sample trace's export as an
ExportTraceServiceRequest through protobuf's JSON parser (unknown fields are errors), and every
id is checked for OTLP/JSON's hex shape (protobuf's parser would read hex as base64 without
complaint). Run by `make test`; BOARDY_VIZ names the binary.
"""
import json
import os
import re
import subprocess
import unittest

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BOARDY_VIZ", os.path.join(ROOT, ".build/debug/boardy-viz"))
SAMPLES = ["checkout", "barrier-loop", "stuck-gate", "add-to-cart", "analytics-dispatch"]
EPOCH = "2026-11-24T09:00:00Z"
EPOCH_NS = 1795510800 * 10**9


def export(name):
    out = subprocess.run([BIN, "export", f"samples/traces/{name}.jsonl", "--to", "otlp", "--epoch", EPOCH],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return out


def events(name):
    with open(os.path.join(ROOT, f"samples/traces/{name}.jsonl"), encoding="utf-8") as f:
        lines = [json.loads(l) for l in f]
    return lines[0], lines[1:]


class OTLPTests(unittest.TestCase):
    def test_every_sample_parses_with_the_official_schema(self):
        for name in SAMPLES:
            with self.subTest(sample=name):
                text = export(name)
                request = json_format.Parse(text, ExportTraceServiceRequest())  # unknown fields raise
                self.assertEqual(len(request.resource_spans), 1)
                resource = {a.key: a.value.string_value for a in request.resource_spans[0].resource.attributes}
                header, evs = events(name)
                self.assertEqual(resource["boardy.scenario"], header["scenario"])
                self.assertEqual(resource["boardy.definition"], header["definition"])
                self.assertEqual(resource["boardy.clock"], "virtual")
                spans = request.resource_spans[0].scope_spans[0].spans
                # A span per activation, gate run, dispatch pull and barrier wait.
                waits = sum(1 for e in evs if e["kind"] in ("gateway.checked", "barrier.checked") and e["result"] == "wait")
                expected = sum(1 for e in evs if e["kind"] in ("activation.requested", "barrier.started", "dispatch.sent")) + waits
                self.assertEqual(len(spans), expected)
                for s in spans:
                    self.assertLessEqual(s.start_time_unix_nano, s.end_time_unix_nano)
                    self.assertGreaterEqual(s.start_time_unix_nano, EPOCH_NS)
                self.assertEqual(min(s.start_time_unix_nano for s in spans), EPOCH_NS + int(evs[0]["t"] * 1e6) * 1000)

    def test_ids_are_hex_unique_and_parents_resolve(self):
        for name in SAMPLES:
            with self.subTest(sample=name):
                doc = json.loads(export(name))
                spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
                ids = [s["spanId"] for s in spans]
                self.assertEqual(len(set(ids)), len(ids))
                trace_ids = {s["traceId"] for s in spans}
                self.assertEqual(len(trace_ids), 1)  # one trace per run
                for s in spans:
                    self.assertRegex(s["traceId"], r"^[0-9a-f]{32}$")
                    self.assertRegex(s["spanId"], r"^[0-9a-f]{16}$")
                    self.assertNotEqual(s["spanId"], "0" * 16)
                    if "parentSpanId" in s:
                        self.assertRegex(s["parentSpanId"], r"^[0-9a-f]{16}$")
                        self.assertIn(s["parentSpanId"], ids)
                parented = sum(1 for s in spans if "parentSpanId" in s)
                self.assertGreater(parented, 0)

    def test_the_same_trace_exports_the_same_bytes(self):
        self.assertEqual(export("checkout"), export("checkout"))

    def test_checkout_parent_links(self):
        spans = json.loads(export("checkout"))["resourceSpans"][0]["scopeSpans"][0]["spans"]
        by_id = {s["spanId"]: s for s in spans}
        by_name = {}
        for s in spans:
            by_name.setdefault(s["name"], []).append(s)
        # The shopping cart was activated by the welcome board's flow: its span is the child of
        # the welcome board's activation; its gateway wait is the child of its activation.
        cart = by_name["activate pubShoppingCart"][0]
        self.assertEqual(by_id[cart["parentSpanId"]]["name"], "activate pubWelcome")
        wait = by_name["pubShoppingCart waits for the gateway (pubAuth)"][0]
        self.assertEqual(wait["parentSpanId"], cart["spanId"])
        # Each gate run is caused by the wait that started it.
        for run in by_name["gate run pubAuth"]:
            self.assertIn("waits for the gateway", by_id[run["parentSpanId"]]["name"])
        # A stuck gate's wait is an error span that runs to the end.
        stuck = json.loads(export("stuck-gate"))["resourceSpans"][0]["scopeSpans"][0]["spans"]
        self.assertTrue(any(s.get("status", {}).get("code") == 2 and "waits for" in s["name"] for s in stuck))


if __name__ == "__main__":
    unittest.main()
