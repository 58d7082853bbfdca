"""A minimal headless-Chromium driver over the DevTools protocol on a pipe (`--remote-debugging-pipe`: Chromium
reads commands on fd 3 and writes replies on fd 4, each a JSON message ended by a NUL byte). No WebDriver, no
Node, no download: it drives the system's Chromium (Debian's `chromium`)."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any


def find_chromium() -> str | None:
    for name in (os.environ.get("KGREASON_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (path := shutil.which(name)):
            return path
    return None


class Browser:
    def __init__(self, binary: str, profile: Path, width: int = 1366, height: int = 900) -> None:
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds() -> None:  # in the child: its fd 3 reads our commands, its fd 4 carries its replies
            # first out of the way (the pipes may already be fds 3-6), then into place, inheritable
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=fds,
            close_fds=False,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.session: str | None = None
        self.events: list[dict[str, Any]] = []  # every event Chromium sent (with Network enabled: each request)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if "method" in reply:
                self.events.append(reply)
            elif reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Network.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1366, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        )
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression: str) -> Any:
        out = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"still false after {timeout} s: {expression}")

    def requested_urls(self) -> list[str]:
        """Every URL the page asked for since `open` (page, scripts, styles, fetches, images)."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def click(self, x: float, y: float) -> None:
        """A real mouse click (move, press, release) at page coordinates."""
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click_element(self, selector: str) -> None:
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
            " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()"
        )
        self.click(box["x"], box["y"])

    def type_text(self, text: str) -> None:
        self.send("Input.insertText", {"text": text})

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.session = None
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        os.close(self._to_child)
        os.close(self._from_child)
