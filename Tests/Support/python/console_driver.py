"""Drives the web console in a real headless Chromium over the DevTools protocol (the `websockets` library is the
protocol client): signs in, creates a class and a field, adds and edits an object, reverts the edit from its
history, changes its ACL, watches a live event arrive in the realtime monitor, switches to Chinese and signs in as
the server admin. Saves a PNG screenshot of each step, and prints one JSON line with what it saw.

    console_driver.py --url http://127.0.0.1:PORT --app-id ID --master-key KEY --password PASSWORD --artifacts DIR

Every wait is bounded; any failure exits non-zero with the step and the reason on standard error.
"""

import argparse
import asyncio
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect

STEP_TIMEOUT = 20.0


class DevTools:
    """A minimal DevTools protocol client on one page target."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.pending = {}
        self.problems = []
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        async for text in self.socket:
            message = json.loads(text)
            if "id" in message:
                future = self.pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
                continue
            method = message.get("method")
            params = message.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                self.problems.append("exception: " + json.dumps(details.get("exception", {}).get("description") or details.get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                self.problems.append("console.error: " + json.dumps([arg.get("value", arg.get("description")) for arg in params.get("args", [])]))
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                if entry.get("level") == "error":
                    self.problems.append("log: " + entry.get("source", "") + ": " + entry.get("text", "") + " " + entry.get("url", ""))
            elif method == "Page.javascriptDialogOpening":
                asyncio.create_task(self.send("Page.handleJavaScriptDialog", {"accept": True}))

    async def send(self, method, params=None, timeout=STEP_TIMEOUT):
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        message = await asyncio.wait_for(future, timeout)
        if "error" in message:
            raise RuntimeError(f"{method}: {message['error']}")
        return message.get("result", {})

    async def evaluate(self, expression):
        result = await self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError("evaluate failed: " + json.dumps(details.get("exception", {}).get("description") or details.get("text")))
        return result.get("result", {}).get("value")

    async def wait_for(self, expression, what, timeout=STEP_TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
            await asyncio.sleep(0.1)

    async def click(self, selector):
        ok = await self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false; e.click(); return true; }})()")
        if not ok:
            raise RuntimeError(f"nothing to click at {selector}")

    async def fill(self, selector, value):
        ok = await self.evaluate(
            f"""(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return false;
            if (e.type === 'checkbox') e.checked = {json.dumps(value)} === true; else e.value = {json.dumps(value)};
            e.dispatchEvent(new Event('input', {{bubbles: true}})); e.dispatchEvent(new Event('change', {{bubbles: true}}));
            return true; }})()""")
        if not ok:
            raise RuntimeError(f"nothing to fill at {selector}")

    async def text(self, selector):
        return await self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); return e ? e.textContent : null; }})()")


class Rest:
    """The public REST API with the app's master key, to check what the console did and to make live changes."""

    def __init__(self, base, app_id, master_key):
        self.base = base
        self.headers = {"X-Bmob-Application-Id": app_id, "X-Bmob-Master-Key": master_key, "Content-Type": "application/json"}

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=self.headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")


async def eventually(read, what, timeout=STEP_TIMEOUT):
    """What `read` answers once it is not empty, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.1)


def start_chromium(binary, profile):
    arguments = [
        binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
        "--disable-component-update", "--mute-audio", "--hide-scrollbars", "--window-size=1280,860",
        f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank",
    ]
    # Its chatter goes to a file: a pipe nobody reads would fill up and stop it.
    log = open(os.path.join(profile, "chromium.log"), "wb")
    process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    log.close()
    marker = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            with open(os.path.join(profile, "chromium.log"), "rb") as file:
                raise RuntimeError("chromium exited: " + file.read().decode(errors="replace")[-2000:])
        try:
            with open(marker) as file:
                lines = file.read().split("\n")
            if len(lines) >= 2 and lines[0].strip():
                return process, int(lines[0])
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    raise TimeoutError("chromium did not write DevToolsActivePort within 30 s")


def stop_chromium(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


def page_socket_url(port):
    deadline = time.monotonic() + 10
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as response:
            targets = json.loads(response.read())
        pages = [target for target in targets if target.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        if time.monotonic() > deadline:
            raise TimeoutError("chromium has no page target")
        time.sleep(0.1)


async def run(options, port, report):
    rest = Rest(options.url, options.app_id, options.master_key)
    async with connect(page_socket_url(port), max_size=None, open_timeout=10) as socket:
        page = DevTools(socket)
        for domain in ("Page", "Runtime", "Log"):
            await page.send(f"{domain}.enable")
        await page.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 860, "deviceScaleFactor": 1, "mobile": False})
        os.makedirs(options.artifacts, exist_ok=True)

        async def step(name):
            report["steps"].append(name)
            await asyncio.sleep(0.25)  # let the last paint land
            shot = await page.send("Page.captureScreenshot", {"format": "png"})
            path = os.path.join(options.artifacts, f"{len(report['steps']):02d}-{name}.png")
            with open(path, "wb") as file:
                file.write(base64.b64decode(shot["data"]))
            report["screenshots"].append(path)

        # Sign in with the app's id and master key.
        await page.send("Page.navigate", {"url": options.url + "/console"})
        await page.wait_for("document.querySelector('#signin-form') !== null", "the sign-in form")
        await page.fill("#signin-app-id", options.app_id)
        await page.fill("#signin-master-key", options.master_key)
        await step("sign-in")
        await page.click("#signin-submit")
        await page.wait_for("document.querySelector('#server-info') !== null", "the overview")
        await step("overview")

        # Create a class, and a Number field on it.
        await page.click("[data-view=data]")
        await page.wait_for("document.querySelector('#new-class-form') !== null", "the data view")
        await page.fill("#new-class-name", "ConsoleItem")
        await page.click("#new-class-submit")
        await page.wait_for("document.querySelector('[data-class-panel=ConsoleItem]') !== null", "the new class's panel")
        report["classCreated"] = rest.call("GET", "/1/schemas/ConsoleItem")["className"]
        await page.click("[data-tab=schema]")
        await page.wait_for("document.querySelector('#new-field-name') !== null", "the schema tab")
        await page.fill("#new-field-name", "score")
        await page.fill("#new-field-type", "Number")
        await page.click("#add-field")
        await page.wait_for("document.querySelector('#schema-fields tr[data-field=score]') !== null", "the new field")
        report["scoreType"] = rest.call("GET", "/1/schemas/ConsoleItem")["fields"]["score"]["type"]
        # Class-level permissions: deletes only for a role.
        await page.fill("#schema-permissions tr[data-operation=delete] .clp-restricted", True)
        await page.fill("#schema-permissions tr[data-operation=delete] .clp-grantees", "role:Editors")
        await page.click("#save-permissions")
        report["permissions"] = await eventually(
            lambda: rest.call("GET", "/1/schemas/ConsoleItem").get("classLevelPermissions"), "the saved permissions")
        await step("schema")

        # Add an object with typed fields.
        await page.click("[data-tab=objects]")
        await page.wait_for("document.querySelector('#add-object') !== null", "the objects tab")
        await page.click("#add-object")
        await page.wait_for("document.querySelector('#object-json') !== null", "the object editor")
        fields = {
            "title": "hello <b>not bold</b>", "score": 1,
            "when": {"__type": "Date", "iso": "2026-01-02 03:04:05"},
            "place": {"__type": "GeoPoint", "latitude": 30.5, "longitude": 114.3},
        }
        await page.fill("#object-json", json.dumps(fields))
        await page.click("#object-save")
        await page.wait_for("document.querySelector('#objects-table tbody tr[data-object-id]') !== null", "the new row")
        object_id = await page.evaluate("document.querySelector('#objects-table tbody tr[data-object-id]').getAttribute('data-object-id')")
        report["objectId"] = object_id
        row = f"#objects-table tr[data-object-id='{object_id}']"
        report["typedCells"] = await page.evaluate(
            f"[...document.querySelectorAll(\"{row} [data-type]\")].map(e => e.getAttribute('data-type'))")
        report["titleCell"] = await page.text(f"{row} td[data-field=title]")
        report["markupInjected"] = await page.evaluate(f"document.querySelector(\"{row} td[data-field=title] b\") !== null")
        await step("object-added")

        # Edit it.
        await page.click(f"{row} [data-action=edit]")
        await page.wait_for("document.querySelector('#object-json') !== null", "the object editor")
        await page.evaluate(
            "(() => { const e = document.querySelector('#object-json'); const v = JSON.parse(e.value); v.score = 2;"
            " v.title = 'edited'; e.value = JSON.stringify(v); })()")
        await page.click("#object-save")
        await page.wait_for(f"(document.querySelector(\"{row} td[data-field=score]\") || {{}}).textContent === '2'", "the edited score")
        edited = rest.call("GET", f"/1/classes/ConsoleItem/{object_id}")
        report["afterEdit"] = {"score": edited.get("score"), "title": edited.get("title")}

        # Revert the edit from the object's history.
        await page.click(f"{row} [data-action=history]")
        await page.wait_for("document.querySelector('#history-dialog tr[data-op=update] button.revert') !== null", "the history")
        await step("history")
        await page.click("#history-dialog tr[data-op=update] button.revert")
        await page.wait_for(f"(document.querySelector(\"{row} td[data-field=score]\") || {{}}).textContent === '1'", "the reverted score")
        reverted = rest.call("GET", f"/1/classes/ConsoleItem/{object_id}")
        report["afterRevert"] = {"score": reverted.get("score"), "title": reverted.get("title")}

        # Change its ACL: public read only, and a role that may write.
        await page.click(f"{row} [data-action=acl]")
        await page.wait_for("document.querySelector('#acl-dialog') !== null", "the ACL editor")
        await page.fill("#acl-dialog tr[data-acl='*'] .acl-read", True)
        await page.fill("#acl-dialog tr[data-acl='*'] .acl-write", False)
        await page.fill("#acl-new-who", "role:Editors")
        await page.click("#acl-add")
        await page.wait_for("document.querySelector(\"#acl-dialog tr[data-acl='role:Editors']\") !== null", "the new ACL entry")
        await page.fill("#acl-dialog tr[data-acl='role:Editors'] .acl-write", True)
        await step("acl")
        await page.click("#acl-save")
        await page.wait_for("document.querySelector('#acl-dialog') === null", "the ACL editor to close")
        report["acl"] = rest.call("GET", f"/1/classes/ConsoleItem/{object_id}").get("ACL")

        # Filter: a condition on the Number field makes a typed `where`.
        await page.click("#add-filter")
        await page.fill("#filters [data-condition='0'] .filter-field", "score")
        await page.fill("#filters [data-condition='0'] .filter-op", "gte")
        await page.fill("#filters [data-condition='0'] .filter-value", "1")
        await page.click("#apply-filter")
        await page.wait_for("(document.querySelector('#where-preview') || {}).textContent === 'where = {\"score\":{\"$gte\":1}}'", "the filter")
        await page.wait_for(f"document.querySelector(\"{row}\") !== null", "the filtered row")
        report["filteredRows"] = await page.evaluate("document.querySelectorAll('#objects-table tbody tr').length")
        await page.click("#clear-filter")

        # The users, roles and files views load without errors.
        report["viewErrors"] = []
        for view in ("users", "roles", "files"):
            await page.click(f"[data-view={view}]")
            outcome = await page.wait_for(
                "document.querySelector('#objects-table') ? 'ok' : (document.querySelector('#main .error') || {}).textContent",
                f"the {view} view")
            if outcome != "ok":
                report["viewErrors"].append(f"{view}: {outcome}")

        # Watch the class live, and create objects over REST until one arrives (the subscription is asynchronous).
        await page.click("[data-view=monitor]")
        await page.wait_for("document.querySelector('#monitor-class') !== null", "the monitor")
        await page.fill("#monitor-class", "ConsoleItem")
        await page.click("#monitor-start")
        await page.wait_for("(document.querySelector('#monitor-status') || {}).dataset.status === 'listening'", "the monitor to listen")
        live_id = None
        for _ in range(6):
            created = rest.call("POST", "/1/classes/ConsoleItem", {"title": "live", "score": 7})
            try:
                await page.wait_for(
                    f"document.querySelector(\"#monitor-events tr[data-object-id='{created['objectId']}']\") !== null",
                    "the live event", timeout=3)
                live_id = created["objectId"]
                break
            except TimeoutError:
                continue
        if live_id is None:
            raise TimeoutError("no live event reached the monitor")
        report["liveEvent"] = {"objectId": live_id, "action": await page.evaluate(
            f"document.querySelector(\"#monitor-events tr[data-object-id='{live_id}']\").dataset.action")}
        await step("monitor")

        # Delete the live object, then restore it from the class's deleted objects.
        await page.evaluate("window.confirm = () => true")
        await page.click("[data-view=data]")
        await page.wait_for("document.querySelector('[data-class=ConsoleItem]') !== null", "the data view")
        await page.click("[data-class=ConsoleItem]")
        live_row = f"#objects-table tr[data-object-id='{live_id}']"
        await page.wait_for(f"document.querySelector(\"{live_row}\") !== null", "the live object's row")
        await page.click(f"{live_row} [data-action=delete]")
        await page.wait_for(f"document.querySelector(\"{live_row}\") === null", "the row to go")
        await page.click("[data-tab=deleted]")
        await page.wait_for(f"document.querySelector(\"[data-restore='{live_id}']\") !== null", "the deleted object")
        await page.click(f"[data-restore='{live_id}']")
        await page.wait_for("document.querySelector('#deleted-empty') !== null", "the restore")
        report["restored"] = rest.call("GET", f"/1/classes/ConsoleItem/{live_id}").get("objectId")

        # Chinese.
        await page.fill("#language", "zh")
        await page.wait_for("document.documentElement.lang === 'zh-CN'", "the Chinese interface")
        report["chineseNav"] = await page.evaluate("[...document.querySelectorAll('nav.side button')].map(b => b.textContent)")
        await step("chinese")
        await page.fill("#language", "en")

        # Keys live in sessionStorage only.
        report["localStorageHasKey"] = await page.evaluate(f"JSON.stringify(localStorage).includes({json.dumps(options.master_key)})")
        report["sessionStorageHasKey"] = await page.evaluate(f"JSON.stringify(sessionStorage).includes({json.dumps(options.master_key)})")

        # Sign out, then in as the server admin: the apps and their keys.
        await page.click("#sign-out")
        await page.wait_for("document.querySelector('#signin-form') !== null", "the sign-in form")
        report["sessionStorageAfterSignOut"] = await page.evaluate("sessionStorage.length")
        await page.click("#signin-mode-password")
        await page.fill("#signin-password", "wrong password!")
        await page.click("#signin-submit")
        report["wrongPassword"] = await page.wait_for("(document.querySelector('#signin-error') || {}).textContent", "the refusal")
        await page.fill("#signin-password", options.password)
        await page.click("#signin-submit")
        await page.wait_for(f"document.querySelector(\"#apps-table tr[data-app='{options.app_id}']\") !== null", "the apps")
        await step("apps")

        # 401 answers the console asked for on purpose (the wrong password) show as failed loads: not problems.
        report["problems"] = [problem for problem in page.problems if "/1/console/apps" not in problem]
        page.reader.cancel()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--master-key", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--chromium", default=os.environ.get("BMOB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    options = parser.parse_args()
    profile = tempfile.mkdtemp(prefix="bmob-console-chromium-")
    report = {"steps": [], "screenshots": []}
    process = None
    try:
        process, port = start_chromium(options.chromium, profile)
        asyncio.run(asyncio.wait_for(run(options, port, report), 90))
    except BaseException as error:
        print(f"console driver failed after steps {report['steps']}: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
    finally:
        if process is not None:
            stop_chromium(process)
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
