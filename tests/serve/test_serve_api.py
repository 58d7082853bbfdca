"""The HTTP API of a real `kgreason serve` process on 127.0.0.1 (`--llm none`): datasets, documents with sentence
offsets, KG neighbourhoods, `ask` (the same answer `kgreason run` writes, with evidence sentences, constraints and
losing candidates), the run browser, and bad requests answered with a clear 4xx while the server keeps serving."""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from serve_support import SAMPLE, Served, start_server, stop_server

from kgreason.eval.official import score_files

L3_QUESTION = "阿富汗战争期间具备初始作战能力、且内油作战半径超过1000公里的F-35型别有哪些？"  # doc_01_009


@pytest.fixture(scope="module")
def runs_folder(sample_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample run, plus traps: a result file and a folder that are symlinks leading out of the runs folder."""
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.json").write_text("[]", encoding="utf-8")
    (outside / "secret.trace.jsonl").write_text("", encoding="utf-8")
    (outside / "nested").mkdir()
    (outside / "nested" / "result.json").write_text("[]", encoding="utf-8")
    (outside / "nested" / "result.trace.jsonl").write_text("", encoding="utf-8")
    for name in ("evil.json", "evil.trace.jsonl"):
        link = sample_run / name
        if not link.exists():
            os.symlink(outside / name.replace("evil", "secret"), link)
    if not (sample_run / "linked").exists():
        os.symlink(outside / "nested", sample_run / "linked")
    return sample_run


@pytest.fixture(scope="module")
def server(runs_folder: Path, single_doc_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    log = tmp_path_factory.mktemp("log") / "serve.log"
    served = start_server([str(SAMPLE), str(single_doc_dataset), "--llm", "none", "--runs", str(runs_folder)], log)
    yield served
    stop_server(served)


def get(server: Served, path: str, **params: Any) -> Any:
    with server.client() as c:
        r = c.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def ask(server: Served, body: dict[str, Any] | str | bytes) -> tuple[int, Any]:
    with server.client() as c:
        if isinstance(body, dict):
            r = c.post("/api/ask", json=body)
        else:
            r = c.post("/api/ask", content=body, headers={"Content-Type": "application/json"})
    return r.status_code, r.json()


def raw_get(server: Served, path: str) -> tuple[int, bytes]:
    """GET with the path sent exactly as written (no client-side normalisation of `..`)."""
    u = urlsplit(server.url)
    conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port, timeout=10)
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, body


# ------------------------------------------------------------------------------------------------ listing
def test_health_and_datasets(server: Served) -> None:
    assert get(server, "/api/health")["status"] == "ok"
    datasets = {d["name"]: d for d in get(server, "/api/datasets")}
    assert datasets["sample"] == {"name": "sample", "documents": 4, "questions": 47, "has_gold": True}
    assert datasets["single"]["documents"] == 1 and not datasets["single"]["has_gold"]
    docs = get(server, "/api/datasets/sample/documents")
    assert [d["doc_id"] for d in docs] == ["doc_01", "doc_02", "doc_03", "doc_04"]
    assert all(d["triples"] > 0 and d["questions"] > 0 for d in docs)
    qs = get(server, "/api/datasets/sample/questions", doc_id="doc_01")
    assert qs and {q["doc_id"] for q in qs} == {"doc_01"}


def test_document_sentences_are_exact_spans(server: Served) -> None:
    doc = get(server, "/api/datasets/sample/documents/doc_01")
    content = doc["content"]
    assert len(doc["sentences"]) > 10
    for s in doc["sentences"]:
        assert content[s["start"] : s["end"]] == s["text"]
    starts = [s["start"] for s in doc["sentences"]]
    assert starts == sorted(starts)


def test_neighbourhood(server: Served) -> None:
    n = get(server, "/api/datasets/sample/documents/doc_01/neighbourhood", node="F-35", hops=1)
    assert n["center"] == "F-35" and n["nodes"][0] == "F-35"
    assert ["F-35", "包含型别", "F-35A"] in n["triples"]
    assert all("F-35" in (t[0], t[2]) for t in n["triples"])
    two = get(server, "/api/datasets/sample/documents/doc_01/neighbourhood", node="F-35", hops=2, limit=5)
    assert len(two["triples"]) == 5 and two["truncated"]
    with server.client() as c:
        missing = c.get("/api/datasets/sample/documents/doc_01/neighbourhood", params={"node": "无此节点"})
        assert missing.status_code == 404
        r = c.get("/api/datasets/sample/documents/doc_01/neighbourhood", params={"node": "F-35", "hops": 9})
        assert r.status_code == 422 and "hops" in r.json()["detail"]


# ---------------------------------------------------------------------------------------------------- ask
def test_ask_explains_like_run(server: Served, runs_folder: Path) -> None:
    status, a = ask(server, {"dataset": "sample", "doc_id": "doc_01", "question": L3_QUESTION})
    assert status == 200, a
    assert a["query_id"] == "doc_01_009" and a["difficulty"] == "L3"
    assert sorted(a["answers"]) == ["F-35A", "F-35C"]
    # the same item `kgreason run` wrote for this question
    written = {r["query_id"]: r for r in json.loads((runs_folder / "r1" / "result.json").read_text(encoding="utf-8"))}
    assert a["record"] == written["doc_01_009"]
    path = [[e["head"], e["relation"], e["tail"]] for e in a["evidence"]]
    assert path == a["record"]["gold_reasoning_paths_main"]
    # every KG triple's source sentence is a real span of the document, mentioning both ends
    content = get(server, "/api/datasets/sample/documents/doc_01")["content"]
    kg = [e for e in a["evidence"] if not e["derived"]]
    derived = [e for e in a["evidence"] if e["derived"]]
    assert kg and derived
    for e in kg:
        assert content[e["start"] : e["end"]] == e["sentence"]
        assert e["head"].replace(" ", "") in e["sentence"] or e["tail"] in e["sentence"]
    assert all(e["sentence"] is None for e in derived)
    # constraints: both checked and satisfied, each with its derived comparisons
    cons = {c["key"]: c for c in a["constraints"]}
    assert set(cons) == {"time", "numeric"}
    assert cons["time"]["satisfied"] is True and ["2016年8月2日", "处于时期内", "阿富汗战争"] in cons["time"]["derived"]
    assert cons["numeric"]["satisfied"] is True and ["1093公里", "数值大于", "1000公里"] in cons["numeric"]["derived"]
    # the chosen candidate and the losers, with scores
    chosen = [c for c in a["candidates"] if c["chosen"]]
    assert len(chosen) == 1 and sorted(chosen[0]["answers"]) == ["F-35A", "F-35C"]
    losers = [c for c in a["candidates"] if not c["chosen"]]
    assert losers and all(c["score"] <= chosen[0]["score"] for c in losers)
    assert a["llm"]["asked"] is False and a["seconds"] >= 0 and a["server_seconds"] >= a["seconds"]


def test_concurrent_asks_answer_as_run_does(server: Served, runs_folder: Path) -> None:
    """Every sample question at once, 8 in flight: the same items `kgreason run` wrote (answering threads share one
    reasoner)."""
    written = {r["query_id"]: r for r in json.loads((runs_folder / "r1" / "result.json").read_text(encoding="utf-8"))}
    qa = json.loads((SAMPLE / "qa.json").read_text(encoding="utf-8"))

    def one(q: dict[str, str]) -> tuple[int, Any]:
        return ask(server, {"dataset": "sample", "doc_id": q["doc_id"], "question": q["question"]})

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(one, qa))
    for q, (status, a) in zip(qa, results, strict=True):
        assert status == 200, a
        assert a["record"] == written[q["query_id"]]


def test_ask_new_question_and_single_document(server: Served) -> None:
    status, a = ask(server, {"dataset": "single", "question": "F-35C的翼展是多少？"})
    assert status == 200, a
    assert a["doc_id"] == "doc_01" and a["query_id"] == "doc_01_001" and a["difficulty"] == "L1"
    assert a["answers"]
    status, b = ask(server, {"dataset": "single", "question": "F-35C 的翼展是多少", "difficulty": "L1"})
    assert status == 200 and b["query_id"] == "ask" and b["difficulty"] == "L1"


def test_ask_without_doc_id_finds_the_document_whose_kg_names_the_question(server: Served) -> None:
    # the sample has four documents: the corpus index (kgreason.corpus) picks the one that names F-35C
    status, a = ask(server, {"dataset": "sample", "question": "F-35C的翼展是多少？"})
    assert status == 200, a
    assert a["doc_id"] == "doc_01" and a["query_id"] == "doc_01_001" and a["answers"]


def test_a_session_resolves_follow_ups_against_its_own_earlier_turns(server: Served) -> None:
    first = {"dataset": "sample", "question": "伊丽莎白女王号航空母舰是哪一天服役的？", "session_id": "analyst-1"}
    status, a = ask(server, first)
    assert status == 200 and a["answers"] and a["session_id"] == "analyst-1", a
    follow = {"dataset": "sample", "question": "它的舷号是什么？", "session_id": "analyst-1"}
    status, b = ask(server, follow)
    assert status == 200, b
    assert b["resolved_questions"] and "伊丽莎白女王号" in b["resolved_questions"][0]
    assert "伊丽莎白女王号" in b["question"] and b["answers"] and b["evidence"]
    # another session knows nothing of that dialogue: the pronoun stays unresolved
    status, c = ask(server, {**follow, "session_id": "analyst-2"})
    assert status in (200, 422) and "伊丽莎白女王号" not in str(c.get("resolved_questions", ""))


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"dataset": "sample", "question": "今天天气怎么样？"}, 422, "names anything the question mentions"),
        ({"question": "F-35C的翼展是多少？", "doc_id": "doc_01"}, 422, "dataset is needed"),
        ({"dataset": "nope", "question": "q", "doc_id": "doc_01"}, 404, "unknown dataset 'nope'"),
        ({"dataset": "../../etc", "question": "q", "doc_id": "doc_01"}, 404, "unknown dataset"),
        ({"dataset": "sample", "question": "q", "doc_id": "../../../etc/passwd"}, 422, "no document"),
        ({"dataset": "sample", "question": "q" * 1001, "doc_id": "doc_01"}, 422, "body.question"),
        ({"dataset": "sample", "question": "", "doc_id": "doc_01"}, 422, "body.question"),
        ({"dataset": "sample", "question": "   ", "doc_id": "doc_01"}, 422, "the question is empty"),
        ({"dataset": "sample", "question": "q", "doc_id": "doc_01", "difficulty": "L9"}, 422, "body.difficulty"),
        ({"dataset": "sample", "question": "q", "doc_id": "doc_01", "session_id": "../s1"}, 422, "body.session_id"),
        ({"dataset": "sample", "doc_id": "doc_01"}, 422, "body.question: Field required"),
        ('{"dataset": "sample", "question": ', 422, "not valid JSON"),
        ("[1, 2]", 422, "body"),
        ("\xff\xfe", 422, "not valid JSON"),
    ],
)
def test_bad_ask_requests(server: Served, body: Any, status: int, words: str) -> None:
    got, detail = ask(server, body)
    assert got == status, detail
    assert isinstance(detail["detail"], str) and words in detail["detail"]


def test_oversized_body_is_refused_and_server_keeps_serving(server: Served) -> None:
    big = json.dumps({"dataset": "sample", "doc_id": "doc_01", "question": "问" * 350_000}, ensure_ascii=False)
    assert len(big.encode()) > 1_000_000
    status, detail = ask(server, big.encode())
    assert status == 413 and "larger than" in detail["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit applies while the body streams in
        yield b'{"dataset": "sample", "doc_id": "doc_01", "question": "'
        for _ in range(100):
            yield b"x" * 10_000
        yield b'"}'

    with server.client() as c:
        r = c.post("/api/ask", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert get(server, "/api/health")["status"] == "ok"
    status, a = ask(server, {"dataset": "sample", "doc_id": "doc_01", "question": "F-35C的翼展是多少？"})
    assert status == 200 and a["answers"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/../../pyproject.toml",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/%2e%2e%2f%2e%2e%2fcli.py",
        "/static//etc/passwd",
        "/static/vendor/../../models.py",
        "/static/..%5c..%5capp.py",
        "/static/app.py",
        "/static/../../../../../../etc/passwd",
        "/api/datasets/..%2F..%2Fetc/documents",
        "/api/datasets/sample/documents/..%2Fdocument.json",
        "/api/datasets/sample/documents/%2Fetc%2Fpasswd",
        "/api/runs/items?run=../../etc/passwd",
        "/api/runs/items?run=%2Fetc%2Fpasswd",
        "/api/runs/items?run=evil.json",
        "/api/runs/items?run=linked/result.json",
    ],
)
def test_no_path_outside_the_served_folders(server: Served, path: str) -> None:
    status, body = raw_get(server, path)
    assert status in (404, 422), (status, body[:200])
    assert b"root:" not in body and b"[project]" not in body and b"import " not in body


def test_page_and_assets_are_served(server: Served) -> None:
    status, page = raw_get(server, "/")
    assert status == 200 and "提问".encode() in page and b"/static/vendor/cytoscape.min.js" in page
    for asset in ("/static/app.js", "/static/app.css", "/static/vendor/cytoscape.min.js", "/static/favicon.svg"):
        assert raw_get(server, asset)[0] == 200, asset
    status, docs = raw_get(server, "/docs")
    assert status == 200 and b"/static/vendor/swagger-ui-bundle.js" in docs and b"cdn." not in docs
    assert b'"validatorUrl": null' in docs  # Swagger UI would otherwise send the spec to an online validator
    spec = get(server, "/openapi.json")
    assert {"/api/ask", "/api/datasets", "/api/runs", "/api/runs/items", "/api/runs/item"} <= set(spec["paths"])
    assert "AskRequest" in spec["components"]["schemas"]


# --------------------------------------------------------------------------------------------------- runs
def test_runs_are_listed_and_scored(server: Served, runs_folder: Path) -> None:
    runs = {r["id"]: r for r in get(server, "/api/runs")}
    assert set(runs) == {"r1/result.json"}  # the symlinked traps are not listed
    expected = score_files(runs_folder / "r1" / "result.json", SAMPLE / "qa_answer.json")
    assert runs["r1/result.json"]["dataset"] == "sample"
    assert runs["r1/result.json"]["mean"] == pytest.approx(expected.mean, abs=1e-4)

    items = get(server, "/api/runs/items", run="r1/result.json")
    assert items["count"] == 47 and set(items["levels"]) == {"L1", "L2", "L3"}
    by_id = {q.query_id: q for q in expected.per_question}
    for it in items["items"]:
        assert it["score"] == pytest.approx(by_id[it["query_id"]].score, abs=1e-4)
        assert it["components"] is not None and it["status"] == "scored"
    l3 = get(server, "/api/runs/items", run="r1/result.json", level="L3")
    assert l3["count"] == sum(1 for q in expected.per_question if q.level == "L3")
    assert {it["level"] for it in l3["items"]} == {"L3"}
    kind = items["answer_types"][0]
    typed = get(server, "/api/runs/items", run="r1/result.json", answer_type=kind)
    assert typed["count"] >= 1 and {it["answer_type"] for it in typed["items"]} == {kind}


def test_run_item_marks_matched_triples(server: Served) -> None:
    d = get(server, "/api/runs/item", run="r1/result.json", query_id="doc_01_009")
    assert d["item"]["query_id"] == "doc_01_009" and d["gold_path_label"] == "main"
    assert sorted(d["predicted_answers"]) == sorted(d["gold_answers"])
    pred = {tuple(m["triple"]): m["matched"] for m in d["predicted_chain"]}
    gold = {tuple(m["triple"]): m["matched"] for m in d["gold_chain"]}
    for t, matched in pred.items():
        assert matched == (t in gold)
    assert d["explanation"] is not None and d["explanation"]["query_id"] == "doc_01_009"
    # a question whose evidence is not perfect has unmatched triples on some side
    items = get(server, "/api/runs/items", run="r1/result.json")["items"]
    imperfect = [it for it in items if it["components"]["evidence"] < 0.999]
    if imperfect:
        d2 = get(server, "/api/runs/item", run="r1/result.json", query_id=imperfect[0]["query_id"])
        marks = [m["matched"] for m in d2["predicted_chain"] + d2["gold_chain"]]
        assert False in marks
    with server.client() as c:
        r = c.get("/api/runs/item", params={"run": "r1/result.json", "query_id": "nope"})
        assert r.status_code == 404 and "nope" in r.json()["detail"]
        r = c.get("/api/runs/items", params={"run": "missing.json"})
        assert r.status_code == 404 and "GET /api/runs" in r.json()["detail"]
