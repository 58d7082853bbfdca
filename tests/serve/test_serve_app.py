"""The app in-process (over httpx's ASGI transport): a bug while answering is a JSON 500 and the app keeps answering;
the body limit refuses a streamed body; a run whose `.run.json` names the dataset is scored against it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")

import asyncio

import httpx
from serve_support import SAMPLE

from kgreason.data.loader import load_dataset
from kgreason.data.records import Question
from kgreason.reason.reasoner import QuestionResult, Reasoner
from kgreason.serve.app import ServedDataset, ServeState, create_app
from kgreason.serve.runs import RunCatalog


class _Flaky(Reasoner):
    """Raises on one question (a stand-in for a reasoner bug), answers the others."""

    def answer(self, q: Question) -> QuestionResult:
        if "boom" in q.question:
            raise ValueError("simulated bug")
        return super().answer(q)


def _app(tmp_path: Path, max_body: int = 16 * 1024) -> Any:
    ds = load_dataset(SAMPLE, check_gold=False)[0]
    state = ServeState(
        {"sample": ServedDataset("sample", ds, _Flaky(ds))},
        RunCatalog([tmp_path], {"sample": ds}),
        llm_name="none",
        max_body_bytes=max_body,
    )
    return create_app(state)


def _post(app: Any, *bodies: Any) -> list[httpx.Response]:
    """POST each body to /api/ask in turn (a dict as JSON, else raw content)."""

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            out = []
            for body in bodies:
                if isinstance(body, dict):
                    out.append(await client.post("/api/ask", json=body))
                else:
                    out.append(
                        await client.post("/api/ask", content=body, headers={"Content-Type": "application/json"})
                    )
            return out

    return asyncio.run(go())


def test_a_bug_is_a_json_500_and_serving_goes_on(tmp_path: Path) -> None:
    bad, ok = _post(
        _app(tmp_path),
        {"doc_id": "doc_01", "question": "boom?"},
        {"doc_id": "doc_01", "question": "F-35C的翼展是多少？"},
    )
    assert bad.status_code == 500
    assert bad.json()["detail"] == "internal error in POST /api/ask: ValueError: simulated bug"
    assert ok.status_code == 200 and ok.json()["answers"]


def test_streamed_body_over_the_limit(tmp_path: Path) -> None:
    async def body() -> Any:
        yield b'{"doc_id": "doc_01", "question": "'
        yield b"x" * 300
        yield b'"}'

    big, small = _post(_app(tmp_path, max_body=200), body(), {"doc_id": "doc_01", "question": "F-35C的翼展是多少？"})
    assert big.status_code == 413 and big.json()["detail"] == "request body larger than 200 bytes"
    assert small.status_code == 200


def test_run_scored_against_the_dataset_its_run_json_names(tmp_path: Path) -> None:
    ds = load_dataset(SAMPLE)[0]
    assert ds.gold is not None
    folder = tmp_path / "exp"
    folder.mkdir()
    gold = [ds.gold[q.query_id].to_json() for q in ds.questions[:3]]  # the gold itself as a 3-question run
    (folder / "result.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    (folder / "result.run.json").write_text(json.dumps({"data_dir": str(SAMPLE)}), encoding="utf-8")
    # "other" has the same questions (it would win on them alone) but lives elsewhere
    catalog = RunCatalog([tmp_path], {"other": replace(ds, root="/elsewhere"), "sample": ds})
    [info] = catalog.list()
    assert (info.id, info.dataset, info.questions) == ("exp/result.json", "sample", 3)
    items = catalog.items("exp/result.json")
    scored = [it for it in items.items if it.status == "scored"]
    assert len(scored) == 3 and all(it.score == pytest.approx(1.0) for it in scored)
    assert sum(it.status == "missing" for it in items.items) == len(ds.gold) - 3
    detail = catalog.item("exp/result.json", ds.questions[0].query_id)
    assert all(m.matched for m in detail.predicted_chain) and detail.explanation is None
