#!/usr/bin/python3
"""A user with the token, in a real browser: headless Chromium driven over the DevTools protocol.

Opens the dashboard that `railyard serve --token-file` serves, as a person would: the login page
first (a wrong token, then the right one typed into its form), then every view of the dashboard
(cards, rack heat map, findings and their rack and severity filters, verify, acceptance, rollout)
and every tab of the plan page behind the same session cookie. It prints what the browser drew
as one JSON object; serve_test.sh compares it with what the API answers. Script errors and
Content-Security-Policy refusals the browser logs are part of the result.

Runs under Debian's /usr/bin/python3 with python3-websocket (websocket-client), a CDP client
being a WebSocket and JSON only. Usage: serve_browser.py CHROMIUM URL TOKEN PROFILE_DIR
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

import websocket

DEADLINE_S = 30  # for any one thing the page is waited for
# The findings table sets its count once the answer for the current filter is drawn: removed before a
# filter changes, its return tells that answer from the one before.
UNCOUNT = "delete document.getElementById('count').dataset.count; "
COUNTED = "('count' in document.getElementById('count').dataset)"


class Browser:
    def __init__(self, chromium, profile):
        os.makedirs(profile, exist_ok=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        if os.path.exists(port_file):
            os.remove(port_file)
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-port=0", "--remote-allow-origins=*", "--user-data-dir=" + profile,
             "--window-size=1300,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = None
        end = time.monotonic() + 60
        while time.monotonic() < end and port is None:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with {self.process.returncode} before it listened")
            try:
                with open(port_file) as f:
                    lines = f.read().split()
                if len(lines) >= 2:
                    port = int(lines[0])
            except (FileNotFoundError, ValueError):
                pass
            time.sleep(0.1)
        if port is None:
            raise RuntimeError("chromium wrote no DevToolsActivePort within 60 s")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        if not pages:
            raise RuntimeError("chromium has no page target")
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=DEADLINE_S, suppress_origin=True)
        self.next_id = 0
        self.logged = []  # what the browser reported: script exceptions, console and log errors
        self.call("Runtime.enable")
        self.call("Log.enable")
        self.call("Page.enable")

    def close(self):
        try:
            self.ws.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _event(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            self.logged.append({"kind": "exception", "text": d.get("text", "") + " " +
                                str(d.get("exception", {}).get("description", ""))})
        elif method == "Log.entryAdded":
            e = params.get("entry", {})
            if e.get("level") == "error":
                self.logged.append({"kind": e.get("source", "log"), "text": e.get("text", ""), "url": e.get("url", "")})
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.logged.append({"kind": "console", "text": " ".join(str(a.get("value", "")) for a in params.get("args", []))})

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._event(message)

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:60]}: {r['exceptionDetails'].get('text')}")
        return r.get("result", {}).get("value")

    def wait(self, expression, what):
        """Polls EXPRESSION until it is truthy; its value, or an error naming WHAT was not drawn."""
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            try:
                value = self.eval(expression)
            except RuntimeError:
                value = None  # the page is between documents
            if value:
                return value
            time.sleep(0.1)
        raise RuntimeError(f"not within {DEADLINE_S} s: {what}")

    def go(self, url):
        self.call("Page.navigate", url=url)


def dashboard_view(b):
    """What the dashboard drew, read from its DOM."""
    return b.eval("""(() => {
      const q = s => [...document.querySelectorAll(s)];
      return {
        ready: document.body.dataset.ready,
        cards: Object.fromEntries(q("[data-card]").map(c => [c.dataset.card, Number(c.querySelector("b").textContent)])),
        racks: q("#heat .rack").length,
        cabling_outlined: q("#heat .rack").filter(r => r.dataset.cabling !== "0").length,
        findings_count: Number(document.getElementById("count").dataset.count),
        findings_rows: q("#findings tbody tr[data-rule]").length,
        fleet_rows: q("#findings tbody tr[data-fleet='1']").length,
        verify: document.getElementById("verify").textContent,
        batches: q("#acceptance tr[data-batch]").map(t => t.dataset.batch),
        waves: q("#rollout tr[data-wave]").map(t => ({wave: t.dataset.wave, state: t.dataset.state})),
        cookie_visible_to_script: document.cookie.includes("railyard_session"),
        path: location.pathname,
      };
    })()""")


def main():
    chromium, url, token, profile = sys.argv[1:5]
    base = url.rstrip("/")
    b = Browser(chromium, profile)
    out = {}
    try:
        b.go(base + "/")
        b.wait("document.readyState === 'complete' && !!document.getElementById('login')", "the login page at /")
        out["locked"] = {
            "login_form": True,
            "dashboard_drawn": b.eval("!!document.getElementById('heat')"),
            "api_status": b.eval("fetch('/api/v1/summary').then(r => r.status)"),
        }

        def submit(value):
            b.eval(f"document.getElementById('token').value = {json.dumps(value)}; document.getElementById('login').submit(); true")

        submit(token + "x")
        out["wrong_token_message"] = b.wait(
            "document.readyState === 'complete' && document.querySelector('.why') && document.querySelector('.why').textContent.trim()",
            "the login page's message after a wrong token")
        submit(token)
        b.wait("document.body && ['1', 'error'].includes(document.body.dataset.ready)", "the dashboard after the right token")
        out["dashboard"] = dashboard_view(b)

        # A rack with findings, clicked: the table shows that rack's findings alone.
        rack = b.eval("(q => q ? q.dataset.rack : null)(document.querySelector(\"#heat .rack:not([data-worst='none'])\"))")
        if rack:
            b.eval(UNCOUNT + f"document.querySelector('#heat .rack[data-rack={json.dumps(rack)}]').click(); true")
            b.wait(f"{COUNTED} && document.getElementById('rack-filter').textContent.includes({json.dumps(rack)})", "the rack filter")
            out["rack_filter"] = {"rack": rack, "count": b.eval("Number(document.getElementById('count').dataset.count)")}
            b.eval(f"document.querySelector('#heat .rack[data-rack={json.dumps(rack)}]').click(); true")
            b.wait("document.getElementById('rack-filter').textContent === ''", "the rack filter cleared")
        for severity in ("error", "warning", "info"):
            b.eval(UNCOUNT + f"{{ const s = document.getElementById('sev'); s.value = {json.dumps(severity)}; s.dispatchEvent(new Event('change')); }} true")
            b.wait(f"{COUNTED} && [...document.querySelectorAll('#findings tbody tr[data-rule] td:first-child')]"
                   f".every(t => t.textContent === {json.dumps(severity)})", f"the {severity} filter")
            out.setdefault("severity_filter", {})[severity] = b.eval("Number(document.getElementById('count').dataset.count)")

        # The plan page behind the same cookie, every tab.
        out["plan"] = {}
        for tab, probe in (("fabric", "document.querySelectorAll('#fabric .plane').length"),
                           ("racks", "document.querySelectorAll('#racks .rack').length"),
                           ("cables", "Number(document.querySelector('[data-shown]').dataset.shown)"),
                           ("bom", "document.querySelectorAll('#bom tr').length"),
                           ("findings", "document.querySelectorAll('#findings tr').length")):
            b.go(base + "/plan#" + tab)
            b.wait(f"document.body && document.body.dataset.readyMs !== undefined && location.hash === '#{tab}'", f"the plan's {tab} tab")
            out["plan"][tab] = {"shown": b.eval(f"document.querySelector('section.on') && document.querySelector('section.on').id"),
                                "items": b.eval(probe)}
    except Exception as e:  # what was not drawn is the result, not a traceback
        out["error"] = str(e)
    finally:
        b.close()
    out["logged"] = b.logged
    json.dump(out, sys.stdout, indent=1)
    print()
    return 1 if "error" in out else 0


if __name__ == "__main__":
    sys.exit(main())
