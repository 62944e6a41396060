#!/usr/bin/env python3
"""Drives the `sanehosts serve` dashboard in a real, headless Chromium.

Everything runs on 127.0.0.1 and nothing touches the internet or this machine's /etc/hosts:
- a list server (ThreadingHTTPServer in a thread) serves /ads.txt, /trackers.txt and /slow.txt,
  a 5 MB list sent 4 KB every 100 ms so an update can be cancelled while it downloads;
- a real dnsmasq answers every name with a routable address except a few ad and tracker domains
  from the blocker-test registry, so the score lies strictly between 0 and 100 and the blocked
  count of one category is known in advance;
- `sanehosts serve` runs on a fresh data directory and writes a temporary hosts file.

The browser adds sources, submits a URL and a rule holding markup (refused, quoted as text, never
run), cancels one source of an update from its row, runs and cancels an update, runs a DNS blocker test, opens the history, previews and applies
the hosts file, and reads the overview with JavaScript disabled. Errors in the browser console fail
the run too. A PNG of each whole page goes to SCREENSHOT_DIR; on failure also failure.png and
failure.html, and the message carries the server's output and its own view of the jobs.

Environment: SANEHOSTS_BIN (default .build/debug/sanehosts), SCREENSHOT_DIR (default
.build/screenshots), CHROMIUM (default /usr/bin/chromium), CHROMEDRIVER (default /usr/bin/chromedriver),
DNSMASQ (default /usr/sbin/dnsmasq).
Needs: Debian chromium, chromium-driver, dnsmasq-base; selenium from PyPI
(scripts/install-browser-deps.sh installs them). Exits 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import base64
import os
import queue
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

try:
    from selenium import webdriver
    from selenium.common.exceptions import (
        NoAlertPresentException,
        StaleElementReferenceException,
        TimeoutException,
        WebDriverException,
    )
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(
        f"FAIL: selenium is not importable ({error}): run `python3 -m pip install selenium` "
        "(scripts/install-browser-deps.sh does).",
        file=sys.stderr,
    )
    sys.exit(1)

REPO = Path(__file__).resolve().parents[2]
REGISTRY = REPO / "Sources/BlockerTest/Resources/registry.tsv"
SANEHOSTS = Path(os.environ.get("SANEHOSTS_BIN", ".build/debug/sanehosts")).absolute()
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", ".build/screenshots")).absolute()
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
DNSMASQ = os.environ.get("DNSMASQ", "/usr/sbin/dnsmasq")

WAIT = 20  # seconds for an ordinary page change
BEGIN_MARKER = "# >>> SaneHosts: managed section, do not edit"
END_MARKER = "# <<< SaneHosts: end of managed section <<<"

# Domains dnsmasq sinkholes (0.0.0.0 and ::); every other name resolves to a routable address.
BLOCKED_DOMAINS = ["doubleclick.net", "googlesyndication.com", "hotjar.com"]
# The category whose blocked count is checked exactly.
CHECKED_CATEGORY = "Ads"

# The lists. ads.txt is in hosts format, with hostile text the parser must reject and the page
# must show (if at all) as text only.
ADS_TXT = """\
# Test ad list
# <script>alert(1)</script>
0.0.0.0 ads.website
0.0.0.0 banner.ads.website
127.0.0.1 popup.website
0.0.0.0 <img src=x onerror=alert(1)>.website
<img src=x onerror=alert(1)>.website
0.0.0.0 adserver.website  # inline comment
""".encode()
TRACKERS_TXT = """\
# Test tracker list (one name per line)
tracker.website
pixel.tracker.website
metrics.website
<img src=x onerror=alert(1)>.website
""".encode()
VALID_NAMES = {
    "ads.website", "banner.ads.website", "popup.website", "adserver.website",
    "tracker.website", "pixel.tracker.website", "metrics.website",
}
# A list that is not there (404), at a long URL: its failure message must wrap, never widen a page.
GONE_PATH = "/lists/" + "a-very-long-path-segment-without-any-break-" * 4 + "missing-list.txt"
SLOW_TOTAL = 5 * 1024 * 1024
SLOW_CHUNK = 4096
SLOW_INTERVAL = 0.1


class Failure(Exception):
    """A check that did not hold; the message says what was expected and what was seen."""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Failure(message)


# MARK: - The list server


class ListServer:
    """Serves the test lists on 127.0.0.1 at a free port, from a thread."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.requests: list[str] = []
        self.slow_downloads: list[str] = []  # How each /slow.txt response ended, for failure messages.
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                server.requests.append(f"{self.command} {self.path}")

            def do_HEAD(self) -> None:
                self.respond(head=True)

            def do_GET(self) -> None:
                self.respond(head=False)

            def respond(self, head: bool) -> None:
                path = self.path.split("?", 1)[0]
                if path == "/slow.txt":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/plain; charset=utf-8")
                    self.send_header("Content-Length", str(SLOW_TOTAL))
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    if not head:
                        self.dribble()
                    return
                body = {"/ads.txt": ADS_TXT, "/trackers.txt": TRACKERS_TXT}.get(path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if not head:
                    self.wfile.write(body)

            def dribble(self) -> None:
                """Sends SLOW_TOTAL bytes of hosts lines, SLOW_CHUNK every SLOW_INTERVAL seconds."""
                sent = 0
                number = 0
                started = time.monotonic()
                ending = "stopped by the test"
                try:
                    while sent < SLOW_TOTAL and not server.stop.is_set():
                        lines = []
                        size = 0
                        while size < SLOW_CHUNK:
                            line = f"0.0.0.0 slow{number}.website\n"
                            lines.append(line)
                            size += len(line)
                            number += 1
                        chunk = "".join(lines).encode()[: min(SLOW_CHUNK, SLOW_TOTAL - sent)]
                        self.wfile.write(chunk)
                        self.wfile.flush()
                        sent += len(chunk)
                        server.stop.wait(SLOW_INTERVAL)
                    if sent == SLOW_TOTAL:
                        ending = "sent in full"
                except (BrokenPipeError, ConnectionResetError, OSError) as error:
                    ending = f"client went away ({type(error).__name__})"  # A cancelled update: the point.
                server.slow_downloads.append(
                    f"{ending} after {sent:,} bytes, {time.monotonic() - started:.1f} s (at {time.strftime('%H:%M:%S')})")
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="list-server", daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


# MARK: - dnsmasq


def registry() -> list[tuple[str, str, str]]:
    """(category, provider, hostname) for every registry line."""
    rows = []
    for line in REGISTRY.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        category, provider, hostname = line.split("\t")
        rows.append((category, provider, hostname.strip().lower()))
    return rows


def is_blocked(hostname: str) -> bool:
    return any(hostname == domain or hostname.endswith("." + domain) for domain in BLOCKED_DOMAINS)


def free_dns_port() -> int:
    """A port on 127.0.0.1 free for UDP and TCP, below the ephemeral range (as FreePort.forDNS)."""
    for _ in range(100):
        port = random.randint(20000, 31999)
        try:
            for kind in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
                with socket.socket(socket.AF_INET, kind) as probe:
                    probe.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue
    raise Failure("no free port for dnsmasq between 20000 and 32000 after 100 tries")


def dns_query(port: int, name: str, timeout: float = 0.5) -> bytes | None:
    """Sends one A query to 127.0.0.1:port; the raw reply, or None without one."""
    ident = random.randint(0, 0xFFFF)
    question = b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0"
    packet = struct.pack(">HHHHHH", ident, 0x0100, 1, 0, 0, 0) + question + struct.pack(">HH", 1, 1)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(timeout)
        sock.sendto(packet, ("127.0.0.1", port))
        try:
            reply, _ = sock.recvfrom(512)
        except socket.timeout:
            return None
    return reply if reply[:2] == packet[:2] else None


class Dnsmasq:
    """A real dnsmasq on 127.0.0.1: everything resolves to 93.184.216.34 except BLOCKED_DOMAINS."""

    def __init__(self, directory: Path) -> None:
        check(os.access(DNSMASQ, os.X_OK), f"{DNSMASQ} is missing: install the Debian package dnsmasq-base")
        self.log_path = directory / "dnsmasq.log"
        for attempt in range(5):
            self.port = free_dns_port()
            arguments = [
                DNSMASQ, "--no-daemon", "--conf-file=/dev/null", "--bind-interfaces",
                "--listen-address=127.0.0.1", f"--port={self.port}", "--no-resolv", "--no-hosts",
                "--log-facility=-", "--cache-size=0",
                "--address=/#/93.184.216.34", "--address=/#/2606:2800:220:1:248:1893:25c8:1946",
            ]
            for domain in BLOCKED_DOMAINS:
                arguments += [f"--address=/{domain}/0.0.0.0", f"--address=/{domain}/::"]
            self.log_file = open(self.log_path, "ab")
            self.process = subprocess.Popen(
                arguments, stdin=subprocess.DEVNULL, stdout=self.log_file, stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.process.poll() is None:
                if dns_query(self.port, "readiness.website") is not None:
                    log(f"dnsmasq answers on 127.0.0.1:{self.port}")
                    return
            self.close()  # The port was taken in between, or it did not come up: another port.
        raise Failure(f"dnsmasq did not start after 5 tries; its log:\n{self.log_path.read_text()}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log_file.close()


# MARK: - sanehosts serve


class Dashboard:
    """`sanehosts serve` on 127.0.0.1 at a port it picks, with its output collected."""

    def __init__(self, directory: Path, hosts_file: Path) -> None:
        check(SANEHOSTS.is_file() and os.access(SANEHOSTS, os.X_OK),
              f"the sanehosts binary {SANEHOSTS} does not exist: build it (swift build) or set SANEHOSTS_BIN")
        data = directory / "data"
        environment = dict(os.environ)
        # Never the user's own data, even where an option is not passed on.
        environment.update(SANEHOSTS_HOME=str(data), XDG_DATA_HOME=str(directory / "xdg"), NO_COLOR="1")
        self.arguments = [
            str(SANEHOSTS), "serve", "--host", "127.0.0.1", "--port", "0",
            "--data-dir", str(data), "--hosts-file", str(hosts_file),
        ]
        log("starting " + " ".join(self.arguments))
        self.process = subprocess.Popen(
            self.arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=environment, cwd=directory)
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream, into: list[str], forward: queue.Queue | None) -> None:
            for raw in iter(stream.readline, b""):
                line = raw.decode(errors="replace").rstrip("\n")
                into.append(line)
                if forward is not None:
                    forward.put(line)
            if forward is not None:
                forward.put(None)

        threading.Thread(target=pump, args=(self.process.stdout, self.stdout, lines), daemon=True).start()
        threading.Thread(target=pump, args=(self.process.stderr, self.stderr, None), daemon=True).start()
        try:
            self.wait_for_address(lines)
        except BaseException:
            self.process.kill()  # Never left running behind a failed start.
            self.process.wait()
            raise

    def wait_for_address(self, lines: queue.Queue) -> None:
        deadline = time.monotonic() + 30
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure("sanehosts serve printed no http://127.0.0.1:PORT/ line within 30 s" + self.output())
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                self.process.wait(5)
                raise Failure(
                    f"sanehosts serve exited with status {self.process.returncode} before listening" + self.output())
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                self.port = int(match.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                log(f"dashboard listening at {self.base}/")
                return

    def api(self, path: str):
        """GET a JSON API path (reads need no CSRF token)."""
        import json
        import urllib.request
        with urllib.request.urlopen(self.base + path, timeout=5) as response:
            return json.load(response)

    def jobs(self) -> str:
        """The server's own view of the update and test jobs (GET /api/update, /api/test), to tell a stuck
        job from a page that stopped receiving events."""
        import urllib.request
        parts = []
        for path in ("/api/update", "/api/test"):
            try:
                with urllib.request.urlopen(self.base + path, timeout=5) as response:
                    parts.append(f"--- GET {path} ---\n{response.read(3000).decode(errors='replace')}")
            except Exception as error:  # Diagnostics only.
                parts.append(f"--- GET {path} failed: {error}")
        return "\n" + "\n".join(parts)

    def output(self) -> str:
        return ("\n--- sanehosts serve stdout ---\n" + "\n".join(self.stdout[-80:]) +
                "\n--- sanehosts serve stderr ---\n" + "\n".join(self.stderr[-80:]))

    def stop(self) -> int:
        """SIGTERM, then waits up to 10 s; the exit status (killed and reported when it hangs)."""
        if self.process.poll() is not None:
            return self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise Failure("sanehosts serve did not exit within 10 s of SIGTERM (killed)")


# MARK: - The browser


def chromium(javascript: bool = True, width: int = 1280, height: int = 900) -> webdriver.Chrome:
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        check(os.access(path, os.X_OK), f"{path} is missing: install the Debian package {package} "
              "(scripts/install-browser-deps.sh does)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--lang=en-US"):
        options.add_argument(argument)
    if not javascript:
        options.add_argument("--blink-settings=scriptEnabled=false")
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium Manager never downloads anything.
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    return driver


class Browser:
    """Helpers on one Chromium: waits with readable failures, screenshots, page checks."""

    def __init__(self, driver: webdriver.Chrome, base: str) -> None:
        self.driver = driver
        self.base = base

    def open(self, path: str) -> None:
        try:
            self.driver.get(self.base + path)
        except TimeoutException:
            raise Failure(
                f"{path} did not load within 30 s. If earlier pages opened Server-Sent Events, Chromium's limit of "
                "6 HTTP/1.1 connections per host may be used up by pages kept in the back/forward cache with "
                "their EventSource still open: pages should close it on `pagehide` (and reopen on `pageshow`)"
            ) from None
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete", f"{path} to load")
        csrf = self.driver.find_elements(By.CSS_SELECTOR, 'meta[name="csrf-token"]')
        check(len(csrf) == 1 and (csrf[0].get_attribute("content") or "").strip() != "",
              f"{path}: expected one <meta name=\"csrf-token\"> with a content, found {len(csrf)}")

    def wait(self, condition, what: str, timeout: float = WAIT):
        """Waits until `condition(driver)` is truthy; fails saying what was awaited."""
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(condition)
        except TimeoutException:
            raise Failure(f"timed out after {timeout:g} s waiting for {what} (page {self.driver.current_url})") from None

    def element(self, css: str, timeout: float = WAIT):
        return self.wait(EC.presence_of_element_located((By.CSS_SELECTOR, css)), f"element {css}", timeout)

    def visible(self, css: str, timeout: float = WAIT):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), f"visible element {css}", timeout)

    def text(self, css: str) -> str:
        """The element's textContent with whitespace collapsed ('' when it does not exist): the DOM's
        words, not as CSS shows them (`text-transform: capitalize` turns "idle" into "Idle")."""
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        if not found:
            return ""
        try:
            return " ".join((found[0].get_attribute("textContent") or "").split())
        except StaleElementReferenceException:
            return ""

    def wait_text(self, css: str, predicate, what: str, timeout: float = WAIT) -> str:
        seen: list[str] = []

        def condition(_):
            value = self.text(css)
            if not seen or seen[-1] != value:
                seen.append(value)
            return value if predicate(value) else False

        try:
            return self.wait(condition, f"{css} to show {what}", timeout)
        except Failure as failure:
            raise Failure(f"{failure}; texts seen: {seen[-8:]!r}") from None

    def click(self, css: str) -> None:
        element = self.wait(EC.element_to_be_clickable((By.CSS_SELECTOR, css)), f"clickable {css}")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def choose(self, css: str, value: str) -> None:
        """Selects the option of a <select> whose value (or, lacking one, text) is `value`."""
        select = Select(self.element(css))
        options = [(o.get_attribute("value") or o.text).strip() for o in select.options]
        check(value in options, f"{css}: no option {value!r}; options: {options!r}")
        select.select_by_index(options.index(value))

    def screenshot(self, name: str) -> None:
        """A PNG of the whole page (not only the window), through the DevTools protocol."""
        path = SCREENSHOTS / name
        width, height = self.driver.execute_script(
            "const e = document.documentElement; return [Math.max(e.scrollWidth, innerWidth), e.scrollHeight]")
        try:
            shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 10000), "scale": 1}})
            path.write_bytes(base64.b64decode(shot["data"]))
        except WebDriverException:
            check(self.driver.save_screenshot(str(path)), f"could not save the screenshot {path}")
        log(f"screenshot {path}")

    def no_script_ran(self, where: str) -> None:
        """The hostile list text is inert: no dialog opened, no <img onerror>, no injected script."""
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            raise Failure(f"{where}: a JavaScript dialog is open ({text!r}): list text ran as script")
        except NoAlertPresentException:
            pass
        images = self.driver.find_elements(By.CSS_SELECTOR, "img[onerror]")
        check(not images, f"{where}: {len(images)} <img> element(s) with an onerror attribute in the DOM")
        scripts = self.driver.execute_script(
            "return Array.from(document.scripts).map(s => s.textContent).filter(t => t.includes('alert(1)'))")
        check(not scripts, f"{where}: a <script> holding list text is in the DOM: {scripts!r}")


def number(text: str) -> int:
    """The first (comma-grouped) integer in a text."""
    match = re.search(r"\d[\d,\u202f\u00a0 ]*", text)
    check(match is not None, f"expected a number, found {text!r}")
    return int(re.sub(r"\D", "", match.group(0)))


def phase_word(text: str) -> str:
    """The phase's first word: "updated" for "updated: 4 names, 4 rejected"."""
    words = re.findall(r"[a-z]+", text.lower())
    return words[0] if words else ""


def category_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# MARK: - The flow


def add_sources(browser: Browser, lists: ListServer) -> None:
    """(a) Adds the three lists through the add-source form and sees them in the table."""
    browser.open("/sources")
    for key, path in (("ads", "/ads.txt"), ("trackers", "/trackers.txt"), ("slow", "/slow.txt"), ("gone", GONE_PATH)):
        url = browser.visible("#add-source #source-url")
        url.clear()
        url.send_keys(lists.url(path))
        key_field = browser.element("#add-source #source-key")
        key_field.clear()
        key_field.send_keys(key)
        browser.click("#add-source-submit")
        browser.element(f'#sources tr[data-source="{key}"]')
        log(f"source {key} added")
    rows = browser.driver.find_elements(By.CSS_SELECTOR, "#sources tr[data-source]")
    keys = {row.get_attribute("data-source") for row in rows}
    check({"ads", "trackers", "slow", "gone"} <= keys,
          f"#sources rows: expected ads, trackers, slow and gone, found {sorted(keys)}")
    table = browser.text("#sources")
    check(lists.url("/ads.txt") in table, f"#sources does not show the ads list's URL: {table!r}")
    catalog = browser.driver.find_elements(By.CSS_SELECTOR, "#catalog button[data-add]")
    check(catalog, "#catalog has no button[data-add] (the built-in catalog of lists)")


HOSTILE_IMG = "<img src=x onerror=alert(1)>"
HOSTILE_SCRIPT = "<script>alert(1)</script>"


def hostile_input(browser: Browser) -> None:
    """(f) Text a user or a list controls is shown as text: a URL and a rule pattern holding markup are
    refused, the refusal quotes them, and nothing runs. (The lists' own hostile lines are rejected by the
    parser; the pages show only counts of rejected tokens, checked in the update step.)"""
    for form, field, value, kind in (
        ("#add-source", "#source-url", HOSTILE_IMG + ".website", None),
        ("#add-rule", '#add-rule input[name="pattern"]', HOSTILE_SCRIPT, "deny"),
    ):
        browser.open("/sources")
        # Past the browser's own checks (type=url, pattern), as a hostile client would be.
        browser.driver.execute_script(f"document.querySelector('{form}').noValidate = true")
        if kind:
            browser.choose(f'{form} select[name="kind"]', kind)
        box = browser.visible(field)
        box.clear()
        box.send_keys(value)
        browser.click(f'{form} button[type="submit"]')
        browser.wait(lambda d: value in d.execute_script("return document.body.innerText"),
                     f"the refusal of {value!r} (quoting it as text) after submitting {form}")
        browser.no_script_ran(f"{form} refusing {value!r}")
    rows = {r.get_attribute("data-source") for r in browser.driver.find_elements(By.CSS_SELECTOR, "#sources tr[data-source]")}
    check(rows == {"ads", "trackers", "slow", "gone"}, f"a refused source was added anyway: #sources lists {sorted(rows)}")
    log("hostile URL and rule pattern refused and shown as text")


def cancel_one_source(browser: Browser) -> None:
    """(b, first) Cancels the slow source alone, from its own row's Cancel: the other sources finish, the
    run goes on and ends finished, the cancelled row says so."""
    browser.open("/sources")
    browser.click("#update-start")
    browser.wait_text("#update-state", lambda t: t == "running", '"running"')
    slow = '#update-progress .source-progress[data-source="slow"]'
    browser.wait_text(slow + " .phase", lambda t: phase_word(t) == "downloading", '"downloading" for slow.txt')
    for key in ("ads", "trackers"):
        row = f'#update-progress .source-progress[data-source="{key}"]'
        browser.wait_text(row + " .phase", lambda t: phase_word(t) == "updated", f'"updated" for {key}')
        ended = browser.element(row + " button.source-cancel")
        check(not ended.is_enabled() and not ended.is_displayed(),
              f"{row}: a source that has ended still shows a Cancel button (disabled or not)")
    button = browser.element(slow + " button.source-cancel")
    check(button.is_displayed() and button.is_enabled(),
          f"{slow}: its Cancel button is hidden or disabled while it downloads")
    browser.click(slow + " button.source-cancel")
    browser.wait_text(slow + " .phase", lambda t: phase_word(t) == "cancelled", 'a "cancelled" phase for slow.txt')
    final = browser.wait_text("#update-state", lambda t: t in ("finished", "failed", "cancelled"),
                              "the run to end after one source was cancelled", timeout=60)
    check(final == "finished", f"#update-state after cancelling one source: expected finished, found {final!r}")
    browser.open("/sources")
    phase = browser.wait_text(slow + " .phase", lambda t: phase_word(t) == "cancelled",
                              'the cancelled row to stay "cancelled" after the reload')
    after = browser.element(slow + " button.source-cancel")
    check(not after.is_enabled() and not after.is_displayed(),
          f"{slow}: a Cancel button is still shown after the run ended")
    failed_row(browser, "beside a cancelled source")
    log(f"one source cancelled ({phase!r}); the run finished")


def update_and_cancel(browser: Browser) -> None:
    """(b, second) Starts an update, sees progress, cancels it while slow.txt downloads."""
    browser.open("/sources")
    state = browser.text("#update-state")
    check(state in ("idle", "finished", "cancelled", "failed", ""), f"#update-state before the update: {state!r}")
    browser.click("#update-start")
    browser.wait_text("#update-state", lambda t: t == "running", '"running"')
    slow = '#update-progress .source-progress[data-source="slow"]'
    browser.element(slow)
    for key in ("ads", "trackers"):
        browser.element(f'#update-progress .source-progress[data-source="{key}"]')
    check(browser.driver.find_elements(By.CSS_SELECTOR, slow + " progress"),
          f"{slow} has no <progress> element")

    # The slow source's phase changes while it downloads (bytes and percentage grow).
    phases: list[str] = []

    def phase_changed(_):
        value = browser.text(slow + " .phase")
        if value and (not phases or phases[-1] != value):
            phases.append(value)
        downloading = [p for p in phases if p.startswith("downloading")]
        return len(set(phases)) >= 2 and len(set(downloading)) >= 2

    try:
        browser.wait(phase_changed, "the slow source's phase to change twice while downloading")
    except Failure as failure:
        raise Failure(f"{failure}; phases seen: {phases!r}") from None
    log(f"slow source phases: {phases[:6]!r}")
    for key in ("ads", "trackers"):
        browser.wait_text(f'#update-progress .source-progress[data-source="{key}"] .phase',
                          lambda t: phase_word(t) in ("updated", "unchanged"),
                          '"updated" (the small lists finish first)')
    failed_row(browser, "live")
    check(browser.text("#update-state") == "running",
          f"#update-state should still be running while slow.txt downloads, is {browser.text('#update-state')!r}")
    browser.screenshot("update-progress.png")

    browser.click("#update-cancel")
    browser.wait_text("#update-state", lambda t: t == "cancelled", '"cancelled"')
    browser.wait_text(slow + " .phase", lambda t: phase_word(t) == "cancelled", 'a "cancelled" phase for slow.txt')
    log("update cancelled")


def failed_row(browser: Browser, when: str) -> None:
    """The failed source's progress row says failed, in the failure colour, with an empty bar (a full bar
    reads as done)."""
    row = '#update-progress .source-progress[data-source="gone"]'
    phase = browser.wait_text(row + " .phase", lambda t: phase_word(t) == "failed", '"failed" for the 404 list')
    check("404" in phase, f"{row} ({when}): the failure does not give the HTTP status: {phase!r}")
    value = float(browser.element(row + " progress").get_attribute("value") or "0")
    check(value == 0, f"{row} ({when}): a failed source's bar is at {value:.0%}, expected empty")
    colours = browser.driver.execute_script(
        "const s = getComputedStyle(document.querySelector(arguments[0] + ' .phase'));"
        " const p = getComputedStyle(document.querySelector(arguments[0] + ' progress'));"
        " const ok = getComputedStyle(document.querySelector('.phase-updated, .phase-unchanged'));"
        " return [s.color, p.accentColor, ok.color];", row)
    check(colours[0] != colours[2] and colours[1] == colours[0],
          f"{row} ({when}): phase colour {colours[0]}, bar {colours[1]}, a finished row {colours[2]}: "
          "expected the failure colour on both, unlike a finished row")


def fits(browser: Browser, path: str, width: int) -> None:
    """At `width` px nothing scrolls sideways, and on /sources the sources table fits its box with every
    Remove button in sight (a long URL or failure message wraps, never pushes the last column away)."""
    overflow = browser.driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 1:
        wide = browser.driver.execute_script(
            "const out = []; for (const e of document.querySelectorAll('body *')) {"
            " const r = e.getBoundingClientRect();"
            " if (r.right > innerWidth + 1 && !e.closest('.scroll')) out.push(e.outerHTML.slice(0, 100)); }"
            " return out.slice(0, 5);")
        check(False, f"{path} is {overflow}px wider than a {width}px window; too wide: {wide}")
    if path == "/sources":
        box = browser.driver.execute_script(
            "const t = document.querySelector('#sources').closest('.scroll'); return [t.scrollWidth, t.clientWidth];")
        check(box[0] <= box[1] + 1, f"/sources at {width}px: the sources table is {box[0] - box[1]}px wider than "
              "its box, so it scrolls sideways")
        clipped = browser.driver.execute_script(
            "const out = []; for (const b of document.querySelectorAll('#sources button.source-remove')) {"
            " const box = b.closest('.scroll').getBoundingClientRect(); const r = b.getBoundingClientRect();"
            " if (r.right > box.right + 1 || r.right > innerWidth) out.push(b.getAttribute('aria-label') +"
            " ' ends at ' + Math.round(r.right) + ' px, its box at ' + Math.round(box.right)); } return out;")
        check(not clipped, f"/sources at {width}px: Remove buttons out of sight: {clipped}")


def disable_slow_and_update(browser: Browser, dashboard: Dashboard) -> None:
    """(b, second half) Disables the slow source, updates again and sees it finish."""
    browser.open("/sources")
    box = browser.element('#sources tr[data-source="slow"] input.source-enabled')
    check(box.is_selected(), "the slow source's input.source-enabled is not ticked before disabling it")
    box.click()

    def slow_disabled(_):
        return any(s["key"] == "slow" and not s["enabled"] for s in dashboard.api("/api/sources"))

    # The server saving it (not the click) is what counts: GET /api/sources says so.
    browser.wait(slow_disabled, "GET /api/sources to show the slow source disabled after unticking it")
    browser.open("/sources")
    box = browser.element('#sources tr[data-source="slow"] input.source-enabled')
    check(not box.is_selected(), "the slow source is still enabled after unticking input.source-enabled and reloading")
    log("slow source disabled")

    check(browser.text("#update-state") == "cancelled",
          f"#update-state after reloading: expected the last run's cancelled, found {browser.text('#update-state')!r}")
    browser.click("#update-start")
    # "cancelled" is the previous run's state: wait for this run's end (it may pass "running" unseen).
    final = browser.wait_text("#update-state", lambda t: t in ("finished", "failed"), '"finished"', timeout=60)
    check(final == "finished", f"#update-state: expected finished, found {final!r}")
    # The page reloads itself shortly after a run ends; a fresh load replays the last run's rows.
    browser.open("/sources")
    for key in ("ads", "trackers"):
        browser.wait_text(f'#update-progress .source-progress[data-source="{key}"] .phase',
                          lambda t: phase_word(t) in ("updated", "unchanged"), "updated or unchanged")
    slow_rows = browser.driver.find_elements(By.CSS_SELECTOR, '#update-progress .source-progress[data-source="slow"]')
    if slow_rows:
        phase = browser.text('#update-progress .source-progress[data-source="slow"] .phase')
        check(phase_word(phase) == "cancelled", f"the disabled slow source has a new phase: {phase!r}")
    failed_row(browser, "after a reload")
    status = browser.text('#sources tr[data-source="gone"] .status')
    check(status == "failed", f'#sources: the 404 list\'s status is {status!r}, expected "failed"')
    fits(browser, "/sources", 1280)
    # The parser kept the valid names and rejected the markup (the pages show only counts of it).
    sources = {s["key"]: s for s in dashboard.api("/api/sources")}
    for key, names, rejected in (("ads", 4, 2), ("trackers", 3, 1)):
        got = sources.get(key, {})
        check(got.get("unique") == names and (got.get("rejected") or 0) >= rejected,
              f"GET /api/sources {key}: expected {names} names and at least {rejected} rejected tokens "
              f"(the <img onerror> lines), found unique={got.get('unique')} rejected={got.get('rejected')}")
    browser.no_script_ran("/sources after the update")
    browser.screenshot("sources.png")


def overview(browser: Browser) -> int:
    """The overview shows the profile and the number of names blocked; returns that number."""
    browser.open("/")
    browser.element("#profile-name")
    count = number(browser.wait_text("#names-blocked", lambda t: re.search(r"\d", t) is not None, "a number"))
    check(count > 0, f"#names-blocked: expected more than 0 names after the update, found {count}")
    check(count == len(VALID_NAMES),
          f"#names-blocked: expected {len(VALID_NAMES)} (the valid names of ads.txt and trackers.txt), found {count}")
    for key in ("ads", "trackers"):
        browser.element(f'#sources-table tr[data-source="{key}"]')
    browser.element("#warnings")
    browser.no_script_ran("/ (overview)")
    log(f"overview: {count} names blocked")
    return count


def blocker_test(browser: Browser, dns: Dnsmasq) -> float:
    """(c) Runs the DNS blocker test against dnsmasq; checks the gauge, one category and the filter."""
    rows = registry()
    expected_blocked = sum(1 for c, _, h in rows if c == CHECKED_CATEGORY and is_blocked(h))
    expected_total = sum(1 for c, _, _ in rows if c == CHECKED_CATEGORY)
    check(0 < expected_blocked < expected_total,
          f"registry: {CHECKED_CATEGORY} should have some but not all names under {BLOCKED_DOMAINS}")
    filtered = sorted(h for _, _, h in rows if h.endswith("doubleclick.net"))

    browser.open("/test")
    browser.choose("#test-form select#probe", "dns")
    resolver = browser.visible("#test-form input#resolver")
    resolver.clear()
    resolver.send_keys(f"127.0.0.1:{dns.port}")
    boxes = browser.driver.find_elements(By.CSS_SELECTOR, '#test-form input[name="category"]')
    check(boxes, '#test-form has no category checkboxes (input[name="category"])')
    for box in boxes:
        if not box.is_selected():
            browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            box.click()
    # Records every state and progress value the page shows: a local dnsmasq answers the whole
    # registry in well under a second, faster than polling could see "running".
    # Kept in sessionStorage: the page may reload itself once the run ends.
    browser.driver.execute_script("""
        const seen = {states: [], progress: []};
        const note = () => {
          const state = document.querySelector('#test-state');
          const bar = document.querySelector('#test-progress');
          if (state) { const t = state.textContent.trim(); if (seen.states.at(-1) !== t) seen.states.push(t); }
          if (bar && bar.value !== undefined) seen.progress.push(Number(bar.value) / Number(bar.max || 1));
          sessionStorage.setItem('sanehostsSeen', JSON.stringify(seen));
        };
        new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
        note();""")
    browser.click("#test-start")
    final = browser.wait_text("#test-state", lambda t: t in ("finished", "failed", "cancelled"), '"finished"', timeout=90)
    check(final == "finished", f"#test-state: expected finished, found {final!r}")
    seen = browser.driver.execute_script("return JSON.parse(sessionStorage.getItem('sanehostsSeen'))")
    check(seen is not None, "the test page's recorder is gone: the page navigated before the run ended")
    check("running" in seen["states"], f"#test-state never showed running; states seen: {seen['states']!r}")
    check(any(0 < value for value in seen["progress"]),
          f"#test-progress never moved; values seen: {seen['progress'][:10]!r}")
    # The page reloads itself shortly after a run ends; a fresh load is the same page, without the race.
    browser.open("/test")
    check(browser.text("#test-state") == "finished", f"#test-state after reloading: {browser.text('#test-state')!r}")

    gauge = browser.element("#test-result svg.gauge[data-percent]")
    percent = float(gauge.get_attribute("data-percent"))
    check(0 < percent < 100, f"svg.gauge data-percent: expected strictly between 0 and 100, found {percent}")
    shown = browser.text("#score-percent")
    check(re.search(r"\d", shown) is not None, f"#score-percent shows no number: {shown!r}")

    cards = browser.driver.find_elements(By.CSS_SELECTOR, "#test-result .category-card[data-category]")
    names = [card.get_attribute("data-category") for card in cards]
    card = next((c for c in cards if category_key(c.get_attribute("data-category")) == category_key(CHECKED_CATEGORY)),
                None)
    check(card is not None, f".category-card[data-category={CHECKED_CATEGORY}] missing; categories shown: {names!r}")
    blocked = number(card.find_element(By.CSS_SELECTOR, ".blocked-count").get_attribute("textContent"))
    reachable = number(card.find_element(By.CSS_SELECTOR, ".reachable-count").get_attribute("textContent"))
    check(blocked == expected_blocked,
          f"{CHECKED_CATEGORY} .blocked-count: expected {expected_blocked} (registry names under {BLOCKED_DOMAINS}), "
          f"found {blocked}")
    check(reachable == expected_total - expected_blocked,
          f"{CHECKED_CATEGORY} .reachable-count: expected {expected_total - expected_blocked}, found {reachable}")
    log(f"test: score {percent}%, {CHECKED_CATEGORY} {blocked} blocked, {reachable} reachable")

    all_rows = browser.driver.find_elements(By.CSS_SELECTOR, "#domain-table tr[data-verdict]")
    probed = [r for r in rows if r[0] != "Control"]  # The control names may be listed apart.
    check(len(all_rows) in (len(rows), len(probed)),
          f"#domain-table: expected {len(probed)} rows (the registry without its {len(rows) - len(probed)} control "
          f"names) or {len(rows)}, found {len(all_rows)}")
    inconclusive = browser.driver.find_elements(By.CSS_SELECTOR, '#domain-table tr[data-verdict="inconclusive"]')
    check(not inconclusive, f"{len(inconclusive)} inconclusive verdicts against a working dnsmasq: "
          f"{[r.text for r in inconclusive[:3]]!r}")
    filter_box = browser.visible("#domain-filter")
    filter_box.clear()
    filter_box.send_keys("doubleclick")

    def filtered_rows(_):
        shown = [r for r in browser.driver.find_elements(By.CSS_SELECTOR, "#domain-table tr[data-verdict]")
                 if r.is_displayed()]
        return shown if len(shown) == len(filtered) else False

    shown = browser.wait(filtered_rows, f"#domain-filter 'doubleclick' to leave {len(filtered)} visible rows")
    for row in shown:
        check("doubleclick" in row.text and row.get_attribute("data-verdict") == "blocked",
              f"filtered row should be a blocked doubleclick name: {row.text!r} ({row.get_attribute('data-verdict')})")
    for link in ("#export-text", "#export-json"):
        href = browser.element(link).get_attribute("href") or ""
        check(href != "", f"{link} has no href")
    browser.screenshot("test.png")
    filter_box.send_keys(Keys.CONTROL, "a")
    filter_box.send_keys(Keys.BACKSPACE)  # As typed: fires the input events clear() does not.
    browser.wait(lambda d: len([r for r in d.find_elements(By.CSS_SELECTOR, "#domain-table tr[data-verdict]")
                                if r.is_displayed()]) == len(all_rows), "every row to show again once the filter is empty")
    return percent


def history(browser: Browser) -> None:
    """(d) The run appears as a card; its page opens."""
    browser.open("/history")
    card = browser.element(".run-card[data-run]")
    run = card.get_attribute("data-run")
    browser.element("svg#score-chart")
    browser.element("#diff-form")
    browser.screenshot("history.png")
    link = browser.element(f'.run-card[data-run="{run}"] a[href$="/history/{run}"]')
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    browser.wait(EC.url_contains(f"/history/{run}"), f"the page of run {run}")
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.gauge, .category-card, #domain-table"),
                 f"the score, categories or domains of run {run}")
    log(f"history: run {run} opened")


def why_and_overlap(browser: Browser) -> None:
    """(g) Why?: a test report's domain links to its explanation; typed into the box (a request per
    keystroke, debounced by the server), the answer shown is the typed name's, with its list and line.
    Overlap: a bar per list and the heatmap."""
    browser.open("/history")
    run = browser.element(".run-card[data-run]").get_attribute("data-run")
    browser.open(f"/history/{run}")
    link = browser.element('#domain-table a[href^="/why?name="]')
    name = (link.get_attribute("textContent") or "").strip()
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    browser.wait(EC.url_contains("/why?name="), "the Why? page of a tested domain")
    browser.element(f'#why-result article[data-why-name="{name}"]')
    log(f"why: the test report's {name} links to its explanation")

    browser.open("/why")
    box = browser.visible("#why-name")
    for character in "pixel.tracker.website":
        box.send_keys(character)
    card = browser.element('#why-result article[data-why-name="pixel.tracker.website"]')
    browser.wait(lambda d: "listed by 1 source" in browser.text("#why-result .why-summary"),
                 "the summary of pixel.tracker.website (listed by 1 source)")
    listing = browser.text("#why-result .why-listings")
    check("trackers" in listing and "pixel.tracker.website" in listing,
          f"the explanation does not name the trackers list and its line: {listing!r}")
    check(len(browser.driver.find_elements(By.CSS_SELECTOR, "#why-result article")) == 1,
          "the Why? box shows more than one answer")
    check("/why?name=pixel.tracker.website" in browser.driver.current_url,
          f"the address does not follow the box: {browser.driver.current_url}")
    box.clear()
    for character in "nothing.website":
        box.send_keys(character)
    browser.wait(lambda d: "listed by no source" in browser.text("#why-result .why-summary"),
                 "the answer for nothing.website (listed by no source)")
    browser.screenshot("why.png")
    log("why: typed names are answered, the newest text wins")

    browser.open("/overlap")
    bars = browser.driver.find_elements(By.CSS_SELECTOR, "#overlap-sources meter")
    rows = browser.driver.find_elements(By.CSS_SELECTOR, "#overlap-sources tbody tr")
    check(bars and len(bars) == len(rows), f"/overlap: {len(bars)} bars for {len(rows)} lists")
    if len(rows) > 1:
        browser.element("#overlap-matrix td[class^=\"heat-\"]")
    browser.screenshot("overlap.png")
    log(f"overlap: {len(rows)} lists with their unique share")


def apply(browser: Browser, hosts_file: Path) -> None:
    """(e) Previews the hosts-file diff, applies it, and finds the names between the markers."""
    browser.open("/apply")
    browser.choose("select#apply-target", "hosts")
    browser.click("#apply-preview")
    diff = browser.wait_text("#apply-diff", lambda t: "ads.website" in t, "a diff adding ads.website")
    check("+" in diff, f"#apply-diff shows no added line: {diff[:300]!r}")
    before = hosts_file.read_text()
    check("ads.website" not in before, "the preview already changed the hosts file")
    no_command_line(browser, "the preview")
    browser.click("#apply-run")

    def done(driver):
        try:
            alert = driver.switch_to.alert  # A confirmation dialog is fine here: accept it.
            alert.accept()
            return False
        except NoAlertPresentException:
            pass
        text = browser.text("#apply-result")
        # "Working…" (or any text ending in an ellipsis) is the page saying it is on its way.
        return text if text and not text.startswith("Working") and not text.endswith(("…", "...")) else False

    result = browser.wait(done, "#apply-result to show the outcome", timeout=30)
    check(str(hosts_file) in result, f"#apply-result does not name the file written ({hosts_file}): {result!r}")
    log(f"apply result: {result[:200]!r}")
    browser.screenshot("apply.png")
    text = hosts_file.read_text()
    check("127.0.0.1 localhost" in text, f"the hosts file lost its own lines:\n{text}")
    begin = text.find(BEGIN_MARKER)
    end = text.find(END_MARKER)
    check(0 <= begin < end, f"the hosts file has no SaneHosts section:\n{text}")
    section = text[begin:end]
    check(re.search(r"^\S+\s+ads\.website\s*$", section, re.M) is not None,
          f"ads.website is not between the SaneHosts markers:\n{section}")
    check("<img" not in section and "slow0.website" not in section,
          f"the section holds rejected or disabled names:\n{section}")
    no_command_line(browser, "the apply")
    browser.open("/apply?target=hosts&preview=1")  # The form's own preview, as without JavaScript.
    browser.element("#apply-result .result")
    no_command_line(browser, "the page's preview")
    restore = browser.driver.find_elements(By.CSS_SELECTOR, "#backups button.restore[data-backup]")
    check(restore, "#backups shows no button.restore[data-backup] after applying (the hosts file was backed up)")
    now = browser.text("#applied-now")
    check("Applied now: profile default" in now, f"/apply does not say what is applied now: {now!r}")


COMMAND_LINE = re.compile(r"`|\bsanehosts [a-z]|(?<![\w-])--[a-z]")


def no_command_line(browser: Browser, when: str) -> None:
    """The Apply page speaks of its own controls, never of commands to run: the source that was never
    downloaded (the 404 list) is named with the page to update it from."""
    text = browser.text("#apply-result")
    warning = [line for line in text.splitlines() if "gone" in line]
    check(warning and "Update now" in warning[0],
          f"#apply-result ({when}) does not say that gone is left out and how to update it: {text!r}")
    found = COMMAND_LINE.search(text)
    check(found is None, f"#apply-result ({when}) tells a web user to run a command ({found and found.group(0)!r}): {text!r}")


def javascript_disabled(base: str, expected: int) -> None:
    """(g) The overview and sources page are readable without JavaScript."""
    driver = chromium(javascript=False)
    try:
        browser = Browser(driver, base)
        browser.open("/")
        check(driver.execute_script("return 1") == 1, "WebDriver scripts stopped working")  # only page scripts are off
        shown = browser.text("#names-blocked")
        check(shown != "" and number(shown) == expected,
              f"without JavaScript #names-blocked shows {shown!r}, expected {expected:,}")
        browser.screenshot("overview-nojs.png")
        browser.open("/sources")
        keys = {r.get_attribute("data-source") for r in driver.find_elements(By.CSS_SELECTOR, "#sources tr[data-source]")}
        check({"ads", "trackers"} <= keys, f"without JavaScript #sources lists {sorted(keys)}")
        log("pages readable with JavaScript disabled")
    finally:
        driver.quit()


# Each page's key columns: at 1280 and 390 px every cell of them must be in sight (inside the window and
# not cut by its scroll box), not only reachable by scrolling sideways.
KEY_COLUMNS = {
    "/": [("#sources-table", "Status"), ("#sources-table", "Updated")],
    "/test": [("#domain-table", "Verdict")],
    "/overlap": [("#overlap-sources", "Unique share"), ("#overlap-sources", "Share of profile")],
    "/why?name=pixel.tracker.website": [(".why-listings", "Line"), (".why-listings", "As written")],
    "/apply": [("#backups", "Taken")],
}


def key_columns_in_sight(browser: Browser, path: str, width: int) -> None:
    """Every cell of the page's key columns lies inside the window and inside its table's scroll box, and
    a number with its unit ("37.8 %") stays on one line."""
    for table, column in KEY_COLUMNS.get(path, []):
        if table == ".why-listings":
            browser.element("#why-result .why-listings tbody tr")
        out = browser.driver.execute_script(
            "const [sel, name] = arguments; const out = []; let cells = 0;"
            " for (const t of document.querySelectorAll(sel)) {"
            "  const heads = Array.from(t.querySelectorAll('thead th')).map(h => h.textContent.trim());"
            "  const i = heads.indexOf(name); if (i < 0) { out.push('no column ' + name); continue; }"
            "  const box = (t.closest('.scroll') || document.body).getBoundingClientRect();"
            "  for (const row of t.querySelectorAll('tbody tr')) {"
            "   const c = row.children[i]; if (!c) continue; cells++; const r = c.getBoundingClientRect();"
            "   if (r.width < 1 || r.right > Math.min(innerWidth, box.right) + 1 || r.left < Math.max(0, box.left) - 1)"
            "    out.push(name + ' cell ' + JSON.stringify(c.textContent.trim().slice(0, 30)) + ' at '"
            "     + Math.round(r.left) + '–' + Math.round(r.right) + ' px, the box ' + Math.round(box.left) + '–'"
            "     + Math.round(Math.min(innerWidth, box.right)));"
            "   if (/\\d %$/.test(c.textContent.trim()) && c.getClientRects().length > 0) {"
            "    const range = document.createRange(); range.selectNodeContents(c);"
            "    const lines = new Set(Array.from(range.getClientRects()).map(q => Math.round(q.top)));"
            "    if (lines.size > 1 && !c.querySelector('meter')) out.push(name + ' ' + c.textContent.trim() + ' wraps');"
            "   } } } return [cells, out];", table, column)
        cells, problems = out
        check(cells > 0, f"{path} at {width}px: no {column} cell in {table}")
        check(not problems, f"{path} at {width}px: {column} of {table} out of sight: {problems[:4]}")


def buttons_apart(browser: Browser, path: str) -> None:
    """Buttons side by side never touch (4 px at least between them)."""
    touching = browser.driver.execute_script(
        "const out = []; const bs = Array.from(document.querySelectorAll('main button')).filter(b => b.offsetParent);"
        " for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {"
        "  const a = bs[i].getBoundingClientRect(), b = bs[j].getBoundingClientRect();"
        "  const sameLine = Math.abs(a.top - b.top) < 4; const gap = Math.max(b.left - a.right, a.left - b.right);"
        "  if (sameLine && gap >= 0 && gap < 4) out.push(bs[i].textContent.trim() + ' | ' + bs[j].textContent.trim()); }"
        " return out;")
    check(not touching, f"{path}: buttons touch: {touching[:3]}")


def headers_aligned(browser: Browser, path: str, width: int) -> None:
    """Every table whose header row shows has each header above its own column (at 1280 px the Overview's,
    Apply's backups', Why?'s, Overlap's and Traffic's headers had sat far from their columns: the phone
    layout's `.stack > *` block display reached `table.stack` too). A stacked table hides its header."""
    out = browser.driver.execute_script(
        "const out = [];"
        " for (const t of document.querySelectorAll('table')) {"
        "  const heads = Array.from(t.querySelectorAll('thead th'));"
        "  if (!heads.length || !t.tHead || t.tHead.getBoundingClientRect().width < 2) continue;"
        "  const row = t.querySelector('tbody tr'); if (!row) continue;"
        "  const cells = Array.from(row.children); if (cells.length !== heads.length) continue;"
        "  heads.forEach((h, i) => { const a = h.getBoundingClientRect(), b = cells[i].getBoundingClientRect();"
        "   if (Math.abs(a.left - b.left) > 2 || Math.abs(a.right - b.right) > 2)"
        "    out.push((t.id || t.className) + ' ' + h.textContent.trim() + ': header ' + Math.round(a.left) + '–'"
        "     + Math.round(a.right) + ' px, column ' + Math.round(b.left) + '–' + Math.round(b.right)); }); }"
        " return out.slice(0, 8);")
    check(not out, f"{path} at {width}px: table headers not above their columns: {out}")


def phone(browser: Browser) -> None:
    """Every page fits a 390 px phone screen: nothing but the tables' own scroll boxes scrolls sideways,
    and each page's key columns are in sight (the wide tables stack their rows)."""
    for path in list(PAGES) + [p for p in KEY_COLUMNS if p not in PAGES]:
        browser.open(path)
        browser.visible("main h1")
        if path == "/why?name=pixel.tracker.website":
            browser.element("#why-result .why-listings tbody tr")
        headers_aligned(browser, path, 1280)
        if path in KEY_COLUMNS:
            key_columns_in_sight(browser, path, 1280)
            buttons_apart(browser, path)
    browser.open("/why")
    ratio = browser.driver.execute_script(
        "return document.querySelector('#why-name').getBoundingClientRect().width"
        " / document.querySelector('#why-form').getBoundingClientRect().width")
    check(ratio > 0.6, f"/why: the name box takes {ratio:.0%} of its row; long names do not fit")
    browser.open("/history")
    labels = browser.driver.find_elements(By.CSS_SELECTOR, "#score-chart text.axis.time")
    check(labels, "/history: the score chart has no time axis")
    browser.open("/apply")
    check(not browser.driver.execute_script(
        "const d = document.querySelector('#apply-diff'); return d && d.offsetParent !== null"
        " && d.textContent.trim() === ''"), "/apply: an empty bordered box before any preview")
    browser.driver.set_window_size(390, 844)
    try:
        for path in list(PAGES) + [p for p in KEY_COLUMNS if p not in PAGES]:
            browser.open(path)
            browser.visible("main h1")
            if path == "/sources":  # The failed list's long URL is on it.
                browser.element('#update-progress .source-progress[data-source="gone"]')
            fits(browser, path, 390)
            key_columns_in_sight(browser, path, 390)
            headers_aligned(browser, path, 390)
            if path == "/sources":
                browser.screenshot("sources-phone.png")
            if path == "/":
                browser.screenshot("overview-phone.png")
    finally:
        browser.driver.set_window_size(1280, 900)


PAGES = ["/", "/sources", "/test", "/history", "/apply"]

# Accessibility checks run in the page: every control has a name, every text meets WCAG AA contrast
# (4.5:1, or 3:1 for large text) against the background it is drawn on. Disabled controls are exempt,
# as WCAG says.
ACCESSIBILITY_SCRIPT = r"""
function rgba(text) {
  const m = text.match(/rgba?\(([^)]+)\)/);
  if (!m) return [0, 0, 0, 0];
  const p = m[1].split(",").map((x) => parseFloat(x));
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function luminance(c) {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}
function background(element) {
  for (let e = element; e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0.5) return c;
  }
  return rgba(getComputedStyle(document.body).backgroundColor);
}
function effectiveOpacity(element) {
  let opacity = 1;
  for (let e = element; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
  return opacity;
}
const problems = [];
for (const control of document.querySelectorAll("input:not([type=hidden]), select, textarea, button")) {
  if (control.offsetParent === null) continue;
  const named = (control.labels && control.labels.length > 0) || control.getAttribute("aria-label") ||
    control.getAttribute("aria-labelledby") || control.title || (control.tagName === "BUTTON" && control.textContent.trim());
  if (!named) problems.push("no accessible name: " + control.outerHTML.slice(0, 120));
}
for (const svg of document.querySelectorAll("svg[role=img]")) {
  if (!svg.getAttribute("aria-label")) problems.push("an image without aria-label: " + svg.outerHTML.slice(0, 80));
}
const seen = new Set();
for (const element of document.querySelectorAll("body *")) {
  if (element.offsetParent === null || element.closest("svg")) continue;
  const own = Array.from(element.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || element.closest(":disabled")) continue;
  const style = getComputedStyle(element);
  const fg = rgba(style.color);
  const bg = background(element);
  const alpha = fg[3] * effectiveOpacity(element);
  const mixed = [0, 1, 2].map((i) => fg[i] * alpha + bg[i] * (1 - alpha));
  const [a, b] = [luminance(mixed), luminance(bg)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight) >= 700);
  const needed = large ? 3 : 4.5;
  const key = element.tagName + "." + element.className + ":" + style.color + "/" + bg.join(",");
  if (ratio < needed && !seen.has(key)) {
    seen.add(key);
    problems.push("contrast " + ratio.toFixed(2) + " < " + needed + " for <" + element.tagName.toLowerCase() +
      " class='" + element.className + "'> '" + element.textContent.trim().slice(0, 40) + "' (" + style.color + " on rgb(" + bg.slice(0, 3).join(",") + "))");
  }
}
return problems;
"""


def accessibility(browser: Browser) -> None:
    """Names, contrast (light and dark) and the keyboard: the skip link comes first, then the navigation."""
    problems: list[str] = []
    for scheme in ["light", "dark"]:
        browser.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        try:
            for path in PAGES:
                browser.open(path)
                browser.visible("main h1")
                problems += [f"{scheme} {path}: {p}" for p in browser.driver.execute_script(ACCESSIBILITY_SCRIPT)]
                if scheme == "dark" and path in ("/", "/test"):
                    browser.screenshot("overview-dark.png" if path == "/" else "test-dark.png")
        finally:
            browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    check(not problems, "accessibility problems:\n  " + "\n  ".join(problems))
    browser.open("/")
    body = browser.element("body")
    body.send_keys(Keys.TAB)
    first = browser.driver.execute_script("return document.activeElement.className")
    check(first == "skip", f"the first Tab should reach the skip link, not {first!r}")
    browser.driver.switch_to.active_element.send_keys(Keys.ENTER)
    browser.driver.switch_to.active_element.send_keys(Keys.TAB)
    inside = browser.driver.execute_script("return document.activeElement.closest('main') !== null")
    check(inside, "after the skip link, Tab should move into the main content")
    log("accessibility: every control named, WCAG AA contrast in light and dark, skip link first")


def console_errors(driver, expected: str | None = None) -> list[str]:
    """SEVERE messages of the browser console since the last call, without those matching `expected`."""
    try:
        return [entry["message"] for entry in driver.get_log("browser")
                if not (expected and re.search(expected, entry["message"])) 
                if entry.get("level") == "SEVERE" and "favicon.ico" not in entry["message"]]
    except WebDriverException:
        return []


def interrupt(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM too: the finally clause stops the browser and the servers.


def main() -> int:
    signal.signal(signal.SIGTERM, interrupt)
    started = time.monotonic()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="sanehosts-browser-"))
    hosts_file = directory / "hosts"
    hosts_file.write_text("127.0.0.1 localhost\n::1 localhost ip6-localhost\n192.0.2.10 printer.lan\n")
    lists = dns = dashboard = driver = None
    failure: str | None = None
    errors: list[str] = []
    try:
        lists = ListServer()
        log(f"list server at {lists.url('/')}")
        dns = Dnsmasq(directory)
        dashboard = Dashboard(directory, hosts_file)
        driver = chromium()
        browser = Browser(driver, dashboard.base)

        browser.open("/")
        browser.screenshot("overview-empty.png")
        add_sources(browser, lists)
        browser.no_script_ran("/sources")
        errors += console_errors(driver)
        hostile_input(browser)
        errors += console_errors(driver, expected=r"/api/(sources|rules) - .*status of 400")  # the refusals
        cancel_one_source(browser)
        update_and_cancel(browser)
        disable_slow_and_update(browser, dashboard)
        names = overview(browser)
        browser.screenshot("overview.png")
        blocker_test(browser, dns)
        history(browser)
        why_and_overlap(browser)
        errors += console_errors(driver)
        apply(browser, hosts_file)
        browser.open("/")
        browser.element("#last-score svg.gauge[data-percent]")
        browser.no_script_ran("/ after the test and apply")
        phone(browser)
        accessibility(browser)
        errors += console_errors(driver)
        javascript_disabled(dashboard.base, names)
        check(not errors, "the browser console reported errors:\n  " + "\n  ".join(errors))
    except Failure as error:
        failure = str(error)
    except KeyboardInterrupt:
        failure = "interrupted (SIGINT or SIGTERM, e.g. the Swift test's time limit)"
    except Exception:  # An unexpected error is a failure too, with its traceback.
        failure = "unexpected error:\n" + traceback.format_exc()
    finally:
        if failure and driver is not None:
            try:
                driver.save_screenshot(str(SCREENSHOTS / "failure.png"))
                (SCREENSHOTS / "failure.html").write_text(driver.page_source)
                failure += f"\n(page {driver.current_url}; failure.png and failure.html in {SCREENSHOTS})"
            except WebDriverException:
                pass
        if driver is not None:
            if failure:
                errors += console_errors(driver)
            driver.quit()
        if dashboard is not None:
            if failure and dashboard.process.poll() is None:
                failure += dashboard.jobs()
            if failure and lists is not None:
                failure += "\n--- list server ---\nrequests: " + ", ".join(lists.requests)
                failure += "\n/slow.txt responses: " + ("; ".join(lists.slow_downloads) or "none ended")
            try:
                status = dashboard.stop()
                if status != 0:
                    message = f"sanehosts serve exited with status {status} after SIGTERM, expected 0"
                    failure = f"{failure}\nAlso: {message}" if failure else message
                elif not failure:
                    log("sanehosts serve stopped cleanly on SIGTERM")
            except Failure as error:
                failure = f"{failure}\nAlso: {error}" if failure else str(error)
            if failure:
                failure += dashboard.output()
        if dns is not None:
            dns.close()
        if lists is not None:
            lists.close()
    if failure and errors and "the browser console reported errors" not in failure:
        failure += "\n--- browser console errors ---\n" + "\n".join(errors)
    elapsed = time.monotonic() - started
    if failure:
        print(f"FAIL after {elapsed:.1f} s: {failure}", file=sys.stderr, flush=True)
        print(f"(temporary files kept in {directory})", file=sys.stderr)
        return 1
    shutil.rmtree(directory, ignore_errors=True)
    log(f"PASS: every dashboard check passed in {elapsed:.1f} s; screenshots in {SCREENSHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
