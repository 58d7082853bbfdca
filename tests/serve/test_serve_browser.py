"""End to end in a real browser: `kgreason serve examples/sample --llm none` on 127.0.0.1, headless Chromium driven
over the DevTools protocol types a question and clicks Ask; the page must show the answer card, the constraint
chips, the evidence graph (its nodes and edges, drawn on the canvas), and a real mouse click on an edge must
highlight that triple's source sentence in the document; the page and the API reference fetch nothing from
another host. The run browser filters, compares chains and opens an explanation. Screenshots are saved (set
KGREASON_SCREENSHOT_DIR to keep them; docs/serve.png was made this way)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cdp import Browser, find_chromium
from serve_support import SAMPLE, ServerFactory

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium binary (chromium / chromium-browser; set KGREASON_CHROMIUM): scripts/setup.sh installs "
        "Debian's chromium when apt-get is available",
    ),
]
QUESTION = "阿富汗战争期间具备初始作战能力、且内油作战半径超过1000公里的F-35型别有哪些？"  # doc_01_009, L3


def _shots(tmp_path: Path) -> Path:
    keep = os.environ.get("KGREASON_SCREENSHOT_DIR")
    folder = Path(keep) if keep else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_ask_in_the_browser_draws_the_evidence_graph(serve: ServerFactory, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    served = serve(str(SAMPLE), "--llm", "none")
    browser = Browser(CHROMIUM, tmp_path / "profile")
    try:
        browser.open(served.url + "/")
        browser.wait_for("!!document.body && document.body.dataset.state === 'ready'")
        # choose the document, then type the question and click Ask as a person would
        browser.evaluate(
            "(() => { const s = document.getElementById('doc'); s.value = 'doc_01';"
            " s.dispatchEvent(new Event('change')); return true; })()"
        )
        browser.click_element("#question")
        browser.type_text(QUESTION)
        assert browser.evaluate("document.getElementById('question').value") == QUESTION
        browser.click_element("#ask")
        state = browser.wait_for(
            "['answered', 'error'].includes(document.body.dataset.state) && document.body.dataset.state"
        )
        assert state == "answered", browser.evaluate("document.getElementById('status').textContent")

        # the answer card
        assert browser.evaluate("document.getElementById('answer-text').textContent") == "F-35A、F-35C"
        # constraint chips, each marked satisfied
        chips = browser.evaluate(
            "[...document.querySelectorAll('#constraints .chip')].map(c => [c.className, c.textContent])"
        )
        assert len(chips) == 2
        assert all("ok" in cls.split() and text.startswith("✓") for cls, text in chips)
        assert any("阿富汗战争期间" in text and "处于时期内" in text for _, text in chips)

        # the evidence graph: nodes and edges as the page built them, and pixels on the canvas
        view = browser.evaluate("JSON.stringify(window.kgreasonView)")
        view = json.loads(view)
        assert {"F-35", "F-35A", "F-35C", "阿富汗战争", "1000公里", "1093公里"} <= set(view["nodes"])
        assert len(view["edges"]) == 10 and view["derivedEdges"] == 4
        assert ["F-35", "包含型别", "F-35A"] in view["edges"]
        assert any(label.startswith("数值大于（1093公里 vs 1000公里") for _, label, _ in view["edges"])
        graph = browser.evaluate(
            "({n: document.getElementById('graph').dataset.nodes, e: document.getElementById('graph').dataset.edges})"
        )
        assert graph == {"n": str(len(view["nodes"])), "e": "10"}
        painted = browser.evaluate(
            "(() => { let n = 0; for (const c of document.querySelectorAll('#graph canvas')) {"
            " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            " for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; } return n; })()"
        )
        assert painted > 1000, "the graph canvas is blank"
        browser.screenshot(_shots(tmp_path) / "serve_answer.png")

        # a real click on an evidence edge highlights its source sentence in the document text
        index = 2  # (F-35A, 初始作战能力时间, 2016年8月2日)
        point = browser.evaluate(f"window.kgreasonEdgePoint({index})")
        browser.click(point["x"], point["y"])
        highlighted = browser.wait_for("window.kgreasonView.highlighted")
        assert highlighted["evidence"] == index
        assert highlighted["text"] == "2016年8月2日，美国空军宣布F-35A具备初始作战能力。"
        dom = browser.evaluate("[...document.querySelectorAll('#doc-text .sent.hl')].map(s => s.textContent)")
        assert dom == [highlighted["text"]]
        browser.screenshot(_shots(tmp_path) / "serve_highlight.png")

        # the API reference page works offline too
        browser.send("Page.navigate", {"url": served.url + "/docs"})
        title = browser.wait_for("(document.querySelector('.swagger-ui .info .title') || {}).textContent")
        assert title.startswith("kgreason")
        # nothing was fetched from another host (the page, its libraries, the API, the reference page)
        urls = browser.requested_urls()
        assert any(u.endswith("/static/vendor/cytoscape.min.js") for u in urls)
        assert any(u.endswith("/static/vendor/swagger-ui-bundle.js") for u in urls)
        outside = [u for u in urls if not u.startswith(served.url) and not u.startswith("data:")]
        assert outside == []
    finally:
        browser.close()


def test_run_browser_filters_and_compares_chains(serve: ServerFactory, sample_run: Path, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    served = serve(str(SAMPLE), "--llm", "none", "--runs", str(sample_run))
    browser = Browser(CHROMIUM, tmp_path / "profile")
    rows = "document.querySelectorAll('#run-table tbody tr')"
    try:
        browser.open(served.url + "/")
        browser.wait_for("!!document.body && document.body.dataset.state === 'ready'")
        browser.click_element("#tab-runs")
        browser.wait_for(f"{rows}.length > 0")
        assert browser.evaluate(f"{rows}.length") == 47
        assert "均分" in browser.evaluate("document.getElementById('run-summary').textContent")
        # filter by level: only L3 rows remain
        browser.evaluate(
            "(() => { const s = document.getElementById('run-level'); s.value = 'L3';"
            " s.dispatchEvent(new Event('change')); return true; })()"
        )
        browser.wait_for(f"{rows}.length < 47")
        levels = browser.evaluate(f"[...{rows}].map(r => r.children[1].textContent)")
        assert levels and set(levels) == {"L3"}
        # open the item doc_01_009: the predicted chain beside the gold chain, matched triples marked
        browser.click_element("#run-table tbody tr[data-query-id='doc_01_009']")
        browser.wait_for(
            "!document.getElementById('run-detail').hidden && document.querySelectorAll('#gold-chain li').length > 0"
        )
        pred = browser.evaluate(
            "[...document.querySelectorAll('#pred-chain li')].map(li => [li.className, li.textContent])"
        )
        gold = browser.evaluate(
            "[...document.querySelectorAll('#gold-chain li')].map(li => [li.className, li.textContent])"
        )
        assert len(pred) == 10 and len(gold) >= 1
        gold_texts = {text for _, text in gold}
        for cls, text in pred:
            assert cls == ("matched" if text in gold_texts else "unmatched")
        assert "(F-35, 包含型别, F-35A)" in gold_texts
        browser.screenshot(_shots(tmp_path) / "serve_runs.png")
        # the run's own explanation (from its trace) opens in the Ask view: the same evidence graph
        browser.evaluate("document.body.dataset.state = 'ready'")
        browser.click_element("#run-open")
        browser.wait_for("document.body.dataset.state === 'answered'")
        view = json.loads(browser.evaluate("JSON.stringify(window.kgreasonView)"))
        assert len(view["edges"]) == len(pred) and view["answers"] == ["F-35A", "F-35C"]
        assert not browser.evaluate("document.getElementById('panel-ask').hidden")
    finally:
        browser.close()
