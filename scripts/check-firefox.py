#!/usr/bin/env python3
"""Checks the page in Firefox (a manual check; CI tests Chromium): opens URL in headless Firefox
ESR over WebDriver BiDi, waits for the sample's verdict and the analysis's warm-up in a worker, pastes a loop, optionally chooses FILE
in the page's file input, and saves a screenshot.

Needs Debian's `firefox-esr` and Python's `websockets` (`pip install websockets`).
Usage: scripts/check-firefox.py URL [FILE] [SCREENSHOT.png]
  e.g. scripts/check-firefox.py "file://$PWD/dist/coherency-analyzer.html?sample=line-loop" big.jsonl
Prints each verdict the page shows; exits non-zero when one does not come within its time.
"""
import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import websockets

PORT = 9333


async def check(url, upload, shot):
    for _ in range(150):
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{PORT}/session", max_size=None)
            break
        except OSError:
            await asyncio.sleep(0.2)
    else:
        raise SystemExit("Firefox did not open its WebDriver BiDi port")
    seq = 0

    async def cmd(method, params):
        nonlocal seq
        seq += 1
        mine = seq
        await ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            m = json.loads(await ws.recv())
            if m.get("id") == mine:
                if m.get("type") == "error":
                    raise SystemExit(f"{method}: {m}")
                return m["result"]

    await cmd("session.new", {"capabilities": {}})
    ctx = (await cmd("browsingContext.getTree", {}))["contexts"][0]["context"]
    await cmd("browsingContext.navigate", {"context": ctx, "url": url, "wait": "complete"})

    async def evaluate(expr, await_promise=True):
        r = await cmd("script.evaluate", {"expression": expr, "target": {"context": ctx}, "awaitPromise": await_promise})
        return r["result"]

    async def wait(expr, what, secs):
        start = time.time()
        while time.time() - start < secs:
            value = (await evaluate(expr)).get("value")
            if value:
                return value
            await asyncio.sleep(0.2)
        body = (await evaluate("document.body.innerText.slice(0, 400)")).get("value")
        raise SystemExit(f"timed out waiting for {what}; the page says: {body!r}")

    verdict = "document.querySelector('#verdict')?.dataset.verdict"
    print("sample:", await wait(verdict, "the sample's verdict", 30))
    warmed = "globalThis.coherencyWorker?.warmedUp"
    print("warm-up (bytes read in a worker):", await wait(warmed, "the analysis's warm-up in a worker", 30))
    await evaluate(
        "(() => { const t = document.getElementById('input'); t.value = 'Let me check the file again.\\n'.repeat(60);"
        " t.dispatchEvent(new Event('input', {bubbles: true})); document.getElementById('analyze').click(); return 1; })()"
    )
    await asyncio.sleep(1)
    print("pasted loop:", await wait(verdict, "the pasted loop's verdict", 30))
    if upload:
        node = await evaluate("document.querySelector('input[type=file]')", await_promise=False)
        await cmd("input.setFiles", {"context": ctx, "element": {"sharedId": node["sharedId"]}, "files": [upload]})
        start = time.time()
        name = json.dumps("file " + os.path.basename(upload))
        shown = await wait(
            "(() => { const b = document.querySelector('#format-bar .detected');"
            " const s = document.getElementById('status')?.textContent ?? '';"
            f" return !s.startsWith('Reading') && b && b.textContent.includes({name})"
            " ? (document.querySelector('#verdict')?.dataset.verdict ?? 'shown') : null; })()",
            "the file's result",
            300,
        )
        print(f"file {os.path.basename(upload)}: {shown} after {time.time() - start:.1f} s")
    if shot:
        data = (await cmd("browsingContext.captureScreenshot", {"context": ctx}))["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(data))
        print("screenshot:", shot)
    await ws.close()


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    url, upload = sys.argv[1], (os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None)
    shot = sys.argv[3] if len(sys.argv) > 3 else None
    profile = tempfile.mkdtemp(prefix="coherency-firefox-")
    firefox = subprocess.Popen(
        ["firefox-esr", "--headless", f"--remote-debugging-port={PORT}", "-no-remote", "-profile", profile,
         "--window-size=1280,1400"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        asyncio.run(check(url, upload, shot))
    finally:
        firefox.terminate()
        firefox.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
