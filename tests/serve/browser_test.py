#!/usr/bin/env python3
"""The serve web page in a real browser (Debian's headless Chromium, driven
by Selenium and chromedriver): upload a sample image, wait for the text,
check it is the sign's text and the boxes were drawn, press Copy.

usage: browser_test.py OCRFORGE_BINARY SAMPLE_IMAGE [SCREENSHOT.png]
Exit 0: passed; 1: failed; 77: skipped (no chromium / chromedriver / selenium).
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

SKIP = 77


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url, proc, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if proc.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url + "/ready", timeout=1) as r:
                if r.status == 200:
                    return True
        except Exception:
            time.sleep(0.1)
    return False


def main():
    binary, image = sys.argv[1], os.path.abspath(sys.argv[2])
    screenshot = sys.argv[3] if len(sys.argv) > 3 else None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        print("skipped: python3-selenium is not installed (scripts/bootstrap.sh installs it)")
        return SKIP
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        print("skipped: chromium / chromium-driver are not installed (scripts/bootstrap.sh installs them)")
        return SKIP

    port = free_port()
    url = "http://127.0.0.1:%d" % port
    log = tempfile.TemporaryFile()
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--access_log", "",
                               "--cpu_threads", "1", "--rec_workers", "1"], stderr=log)
    driver = None
    try:
        if not wait_ready(url, server):
            log.seek(0)
            print("the server did not become ready:", log.read().decode(errors="replace"))
            return 1
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1280,800", "--user-data-dir=" + tempfile.mkdtemp(prefix="ocrforge-chromium-")):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.get(url + "/")
        assert driver.title == "ocrforge OCR", driver.title
        driver.find_element(By.ID, "file").send_keys(image)  # the file chooser's upload
        WebDriverWait(driver, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines li")) >= 3)
        lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#lines li")]
        status = driver.find_element(By.ID, "status").text
        print("text shown:", lines, "| status:", status)
        assert lines[0] == "EPPING", lines
        assert "Twinned with" in lines, lines
        assert "text lines in" in status, status
        # The boxes are drawn over the image: green pixels on the canvas.
        green = driver.execute_script(
            "const c = document.getElementById('canvas'); const d = c.getContext('2d')"
            ".getImageData(0, 0, c.width, c.height).data; let n = 0;"
            "for (let i = 0; i < d.length; i += 4) if (d[i] < 40 && d[i+1] > 150 && d[i+2] > 60 && d[i+2] < 110) n++;"
            "return n;")
        assert green > 100, "no box outlines on the canvas (%d green pixels)" % green
        if screenshot:  # the page as a user sees it after reading
            driver.save_screenshot(screenshot)
            print("screenshot:", screenshot)
        driver.find_element(By.ID, "copy").click()
        WebDriverWait(driver, 10).until(lambda d: "Copied 3 lines" in d.find_element(By.ID, "status").text)
        return 0
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
