"""Loads a `boardy-viz view` page in headless Chromium (Debian's, through /usr/bin/chromedriver)
and prints, as name=value lines: the time from navigation start to the page's ready mark (set
once its table answers), and how long a search over every event takes to show its rows.

Used by `boardy-bench view`; `python3 Benchmarks/view_load.py PAGE [RUNS]`.
"""
import statistics
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

page, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
options = webdriver.ChromeOptions()
for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
    options.add_argument(arg)
options.binary_location = "/usr/bin/chromium"
ready, search = [], []
for _ in range(runs):
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(120)
        driver.get("file://" + page)
        end = time.time() + 120
        while driver.execute_script("return document.documentElement.getAttribute('data-ready')") != "true":
            if time.time() > end:
                raise SystemExit("the page never became ready")
            time.sleep(0.02)
        ready.append(driver.execute_script("return performance.getEntriesByName('boardy-viz-ready')[0].startTime"))
        # The table answers a search over every event (the input's debounce excluded).
        search.append(driver.execute_script("""
            const box = document.getElementById('search'); box.value = 'b7';
            const t0 = performance.now(); box.dispatchEvent(new Event('input'));
            return new Promise(done => { const poll = () => { if (boardyViz.shown() !== boardyViz.events) done(performance.now() - t0 - 120); else setTimeout(poll, 5); }; poll(); });
        """))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if errors:
            raise SystemExit(f"console errors: {errors}")
    finally:
        driver.quit()
print(f"view_ready_ms_runs={','.join(f'{r:.0f}' for r in ready)}")
print(f"view_search_ms={statistics.median(search):.0f}")
print(f"view_ready_s={statistics.median(ready) / 1000:.2f}")
