"""`boardy-viz check --format sarif` read by a SARIF 2.1.0 object model from PyPI
(sarif-pydantic): every result of a scenario and of an app's sources validates, each loop and
self-gated board is a result located at its code with every edge as a related location, and
the compiler-style text names the same places. Run by `make test`; BOARDY_VIZ names the binary.
"""
import json
import os
import subprocess
import unittest

import sarif_pydantic

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BOARDY_VIZ", os.path.join(ROOT, ".build/debug/boardy-viz"))
SHOP = "Tests/BoardyImportTests/Fixtures/ShopApp"


def check(target, fmt):
    p = subprocess.run([BIN, "check", target, "--format", fmt], cwd=ROOT, capture_output=True, text=True)
    return p.returncode, p.stdout


def validated(text):
    doc = json.loads(text)
    model = sarif_pydantic.Sarif.model_validate(doc)  # raises on a malformed log
    assert doc["version"] == "2.1.0", doc["version"]
    assert model.runs and model.runs[0].tool.driver.name == "boardy-viz"
    return doc


class SARIFTests(unittest.TestCase):
    def test_scenarios_validate_and_point_at_their_boards(self):
        for name in ["barrier-loop", "stuck-gate", "checkout"]:
            with self.subTest(sample=name):
                code, out = check(f"samples/{name}.json", "sarif")
                doc = validated(out)
                results = doc["runs"][0]["results"]
                self.assertEqual(code, 3 if any(r["level"] == "error" for r in results) else 0)
                rules = [r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]]
                for r in results:
                    self.assertEqual(rules[r["ruleIndex"]], r["ruleId"])
                    region = r["locations"][0]["physicalLocation"]["region"]
                    self.assertGreater(region["startLine"], 1, "a board's own line, not the file's top")
        _, out = check("samples/barrier-loop.json", "sarif")
        self.assertTrue(any(r["ruleId"] == "barrier-loop" for r in json.loads(out)["runs"][0]["results"]))

    def test_the_app_loop_is_a_result_with_every_edge(self):
        code, out = check(SHOP, "sarif")
        self.assertEqual(code, 3)
        doc = validated(out)
        loops = [r for r in doc["runs"][0]["results"] if r["ruleId"] in ("barrier-loop", "self-gated")]
        self.assertTrue(loops)
        for r in loops:
            uris = [l["physicalLocation"]["artifactLocation"]["uri"] for l in r["relatedLocations"]]
            for u in uris:
                self.assertTrue(os.path.exists(os.path.join(ROOT, u)), u)
            self.assertGreaterEqual(len(r["relatedLocations"]), 2, "the fix and each edge")

    def test_text_is_compiler_style(self):
        code, out = check(SHOP, "text")
        self.assertEqual(code, 3)
        first = out.splitlines()[0]
        path, line, column, rest = first.split(":", 3)
        self.assertTrue(os.path.exists(os.path.join(ROOT, path)), path)
        self.assertTrue(line.isdigit() and column.isdigit())
        self.assertTrue(rest.startswith(" error: ") and rest.endswith("]"), rest)
        self.assertIn(": note: fix: ", out)


if __name__ == "__main__":
    unittest.main()
