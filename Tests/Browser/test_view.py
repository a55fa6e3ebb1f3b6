"""Browser tests of `boardy-viz view`: headless Chromium from Debian, driven by Selenium through
Debian's /usr/bin/chromedriver (nothing downloads a driver).

Run by `make browser-test` (and `.ci/run`), which builds boardy-viz and writes the views first:
BOARDY_VIZ names the binary, OUT the folder for pages and screenshots.
"""
import json
import os
import subprocess
import tempfile
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BOARDY_VIZ", os.path.join(ROOT, ".build/debug/boardy-viz"))
OUT = os.environ.get("OUT", os.path.join(ROOT, "out"))
SAMPLES = ["checkout", "barrier-loop", "stuck-gate", "add-to-cart", "analytics-dispatch"]


def make_driver():
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def view(trace, out, scenario=None):
    args = [BIN, "view", trace, "-o", out] + (["--scenario", scenario] if scenario else [])
    subprocess.run(args, check=True, cwd=ROOT)
    return out


def wait_ready(driver, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script("return document.documentElement.getAttribute('data-ready')") == "true":
            return
        time.sleep(0.05)
    raise AssertionError("the page never became ready; error box: " + driver.find_element(By.ID, "error").text)


def severe(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


class ViewerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(OUT, exist_ok=True)
        cls.driver = make_driver()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def load(self, path):
        self.driver.get("file://" + os.path.abspath(path))
        wait_ready(self.driver)
        self.driver.get_log("browser")  # start each check with the messages of this load only

    def test_every_sample_loads_without_errors_and_is_screenshotted(self):
        for name in SAMPLES:
            with self.subTest(sample=name):
                page = view(f"samples/traces/{name}.jsonl", os.path.join(OUT, f"{name}.view.html"), f"samples/{name}.json")
                self.driver.get("file://" + os.path.abspath(page))
                wait_ready(self.driver)
                self.assertEqual(severe(self.driver), [])
                self.assertEqual(self.driver.find_element(By.ID, "error").text, "")
                self.driver.save_screenshot(os.path.join(OUT, f"{name}.view.png"))
                # The flow graph is drawn from the scenario's definition: every board has its node.
                boards = self.driver.execute_script("return document.querySelectorAll('#graph g.board').length")
                self.assertGreater(boards, 0)

    def test_search_click_and_cause_chain(self):
        page = view("samples/traces/checkout.jsonl", os.path.join(OUT, "checkout.view.html"), "samples/checkout.json")
        self.load(page)
        d = self.driver
        total = d.execute_script("return boardyViz.events")
        search = d.find_element(By.ID, "search")
        search.send_keys("pubOtp")
        time.sleep(0.4)
        shown = d.execute_script("return boardyViz.shown()")
        self.assertTrue(0 < shown < total, (shown, total))
        rows = [r for r in d.find_elements(By.CSS_SELECTOR, "#rows .row") if r.is_displayed()]
        self.assertEqual(len(rows), shown)
        for r in rows:
            self.assertIn("pubotp", r.text.lower())
        self.assertEqual(d.find_element(By.ID, "count").text, f"{shown} of {total} events")
        # Click the row of pubOtp's performed activation: its line and its chain to the stimulus.
        target = next(r for r in rows if "activation.performed" in r.text)
        seq = int(target.find_elements(By.TAG_NAME, "span")[0].text)
        target.click()
        self.assertEqual(d.execute_script("return boardyViz.selected()"), seq)
        line = json.loads(d.find_element(By.ID, "json").text)
        self.assertEqual(line["seq"], seq)
        self.assertEqual(line["kind"], "activation.performed")
        self.assertEqual(line["board"], "pubOtp")
        with open(os.path.join(ROOT, "samples/traces/checkout.jsonl")) as f:
            lines = {json.loads(l)["seq"]: l.rstrip("\n") for l in f.readlines()[1:]}
        self.assertEqual(d.find_element(By.ID, "json").text, lines[seq])  # the exact JSON line
        chain = d.execute_script("return boardyViz.chain()")
        # The chain follows `cause` back to the stimulus that started it all.
        expected = [seq]
        while "cause" in json.loads(lines[expected[-1]]):
            expected.append(json.loads(lines[expected[-1]])["cause"])
        self.assertEqual(chain, expected)
        self.assertEqual(json.loads(lines[chain[-1]])["kind"], "stimulus")
        items = d.find_elements(By.CSS_SELECTOR, "#chain li")
        self.assertEqual(len(items), len(chain))
        # The chain is highlighted in the table: clear the search and look at the rows.
        search.clear()
        search.send_keys(" ")
        search.clear()
        d.execute_script("document.getElementById('search').dispatchEvent(new Event('input'))")
        time.sleep(0.4)
        d.execute_script("document.getElementById('scroller').scrollTop = 0")
        time.sleep(0.2)
        highlighted = d.execute_script(
            "return Array.from(document.querySelectorAll('#rows .row.chain, #rows .row.selected'))"
            ".filter(r => r.style.display !== 'none').map(r => Number(r.children[0].textContent))")
        visible_chain = [s for s in chain if s <= 30]
        self.assertTrue(set(visible_chain) <= set(highlighted), (visible_chain, highlighted))
        # ... and in the timeline: the selected mark has its ring (vermillion) on the canvas.
        x, y = d.execute_script(f"return boardyViz.markAt({seq})")
        ring = d.execute_script(
            """const c = document.getElementById('timeline'), r = c.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
               const g = c.getContext('2d'); const out = [];
               for (let dx = -9; dx <= 9; dx++) for (let dy = -9; dy <= 9; dy++) {
                 const p = g.getImageData(Math.round((arguments[0] - r.left + dx) * dpr), Math.round((arguments[1] - r.top + dy) * dpr), 1, 1).data;
                 if (p[0] > 180 && p[1] > 60 && p[1] < 120 && p[2] < 60) out.push(1);
               } return out.length;""", x, y)
        self.assertGreater(ring, 0)
        self.assertEqual(severe(d), [])

    def test_click_on_the_timeline_selects_the_mark(self):
        page = view("samples/traces/checkout.jsonl", os.path.join(OUT, "checkout.view.html"), "samples/checkout.json")
        self.load(page)
        d = self.driver
        with open(os.path.join(ROOT, "samples/traces/checkout.jsonl")) as f:
            events = [json.loads(l) for l in f.readlines()[1:]]
        resolved = next(e for e in events if e["kind"] == "barrier.resolved" and e["barrier"] == "pubOtp")
        x, y = d.execute_script(f"return boardyViz.markAt({resolved['seq']})")
        canvas = d.find_element(By.ID, "timeline")
        r = d.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left, b.top, b.width, b.height]", canvas)
        ActionChains(d).move_to_element_with_offset(canvas, x - r[0] - r[2] / 2, y - r[1] - r[3] / 2).click().perform()
        time.sleep(0.3)
        self.assertEqual(d.execute_script("return boardyViz.selected()"), resolved["seq"])
        self.assertEqual(json.loads(d.find_element(By.ID, "json").text)["seq"], resolved["seq"])
        # Zoom with the wheel and pan by dragging: the visible range changes, nothing breaks.
        before = d.find_element(By.ID, "range").text
        d.execute_script("arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: arguments[1], clientY: arguments[2], bubbles: true, cancelable: true}))", canvas, x, y)
        time.sleep(0.2)
        zoomed = d.find_element(By.ID, "range").text
        self.assertNotEqual(before, zoomed)
        ActionChains(d).move_to_element(canvas).click_and_hold().move_by_offset(-120, 0).release().perform()
        time.sleep(0.2)
        self.assertNotEqual(zoomed, d.find_element(By.ID, "range").text)
        self.assertEqual(severe(d), [])

    def test_hostile_ids_and_payloads_are_text_and_never_run(self):
        hostile = [
            "<script>window.__pwned='script'</script>",
            "</script><script>window.__pwned='close'</script>",
            "<img src=x onerror=\"window.__pwned='img'\">",
            "javascript:window.__pwned='url'",
            "\" onmouseover=\"window.__pwned='attr'\" x=\"",
            "' autofocus onfocus='window.__pwned=1' '",
            "<svg onload=\"window.__pwned='svg'\"></svg>",
            "\u2028line\u2029sep<!--",
        ]
        events = []
        seq = 0

        def add(kind, t, **fields):
            nonlocal seq
            seq += 1
            e = {"seq": seq, "t": t, "kind": kind, "mb": fields.pop("mb", "main")}
            e.update(fields)
            events.append(e)
            return seq

        for k, h in enumerate(hostile):
            s = add("stimulus", k, action="activate", board=h)
            r = add("activation.requested", k, board=h, input={"<b>": h}, cause=s)
            p = add("activation.performed", k, board=h, input={"<b>": h}, cause=r)
            o = add("output.sent", k, board=h, output=h, cause=p)
            add("flow.routed", k, **{"from": h, "output": h, "to": hostile[(k + 1) % len(hostile)], "action": "activate", "cause": o})
            add("stimulus", k, action="track", event=h)
        header = {"format": "boardy-trace", "version": 1, "scenario": hostile[1], "clock": "virtual"}
        with tempfile.TemporaryDirectory() as tmp:
            trace = os.path.join(tmp, "hostile.jsonl")
            with open(trace, "w", encoding="utf-8") as f:
                f.write(json.dumps(header, ensure_ascii=False) + "\n")
                for e in events:
                    f.write(json.dumps(e, ensure_ascii=False) + "\n")
            page = view(trace, os.path.join(OUT, "hostile.view.html"))
        with open(page, encoding="utf-8") as f:
            raw = f.read()
        data = raw[raw.index('<script id="data" type="application/json">'):]
        data = data[: data.index("</script>")]
        self.assertNotIn("<", data[len('<script id="data" type="application/json">'):])
        self.load(page)
        d = self.driver
        d.save_screenshot(os.path.join(OUT, "hostile.view.png"))
        # Hover and click everything a person would: no handler of theirs runs.
        for r in d.find_elements(By.CSS_SELECTOR, "#rows .row")[:12]:
            if r.is_displayed():
                ActionChains(d).move_to_element(r).click().perform()
        self.assertIsNone(d.execute_script("return window.__pwned === undefined ? null : window.__pwned"))
        self.assertEqual(d.execute_script("return document.scripts.length"), 2)  # the data and ours
        self.assertEqual(d.execute_script("return document.querySelectorAll('img, iframe, object, embed, a, svg svg').length"), 0)
        handlers = d.execute_script(
            "return Array.from(document.querySelectorAll('*')).flatMap(el => Array.from(el.attributes)"
            ".filter(a => a.name.startsWith('on') || /javascript:/i.test(a.value)).map(a => el.tagName + ' ' + a.name))")
        self.assertEqual(handlers, [])
        # No attribute holds trace text.
        leaked = d.execute_script(
            "const needles = arguments[0]; return Array.from(document.querySelectorAll('*')).flatMap(el => Array.from(el.attributes)"
            ".filter(a => needles.some(n => a.value.includes(n))).map(a => el.tagName + ' ' + a.name))", ["__pwned", "<b>"])
        self.assertEqual(leaked, [])
        # Shown as text: the table and the detail show the markup literally.
        body = d.find_element(By.TAG_NAME, "body").text
        self.assertIn("<img src=x onerror=", body)
        self.assertIn("<script>window.__pwned='script'</script>", d.find_element(By.ID, "f-lane").get_attribute("innerText"))
        self.assertIn(hostile[1], d.find_element(By.ID, "title").text)
        self.assertEqual(severe(d), [])


if __name__ == "__main__":
    unittest.main()
