"""The `kgreason serve` application: `create_app(state)` builds the FastAPI app over datasets and a reasoner loaded
once (`ServeState`). Routes only translate HTTP to the typed functions of `kgreason.explain` and `serve.runs`.

- Answering runs on a bounded thread pool, so a slow LLM call holds one worker while other requests go on; runs are
  read and scored on a pool of their own, so they never wait behind the LLM either.
- Every name in a URL (dataset, document, run, static file) is looked up in what was loaded or listed at start;
  none is joined to a filesystem path.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from kgreason import __version__
from kgreason.corpus.answer import Corpus
from kgreason.corpus.index import CorpusIndex
from kgreason.corpus.session import ChatSession
from kgreason.data.records import Dataset
from kgreason.errors import KgreasonError
from kgreason.explain import ExplainedAnswer, answer_question, document_sentences, neighbourhood, question_for
from kgreason.explain.answer import QuestionError
from kgreason.reason.reasoner import Reasoner
from kgreason.serve.limits import BodyLimit
from kgreason.serve.models import (
    MAX_NAME_CHARS,
    AskRequest,
    AskResponse,
    DatasetInfo,
    DocumentInfo,
    DocumentText,
    ErrorBody,
    Health,
    NeighbourhoodOut,
    QuestionInfo,
    RunInfo,
    RunItemDetail,
    RunItems,
    Sentence,
)
from kgreason.serve.runs import RunCatalog, UnknownRun
from kgreason.serve.sessions import Sessions, as_turn_answer, asked_question

MAX_BODY_BYTES = 16 * 1024
MAX_HOPS = 3
MAX_NEIGHBOURHOOD_TRIPLES = 500
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".md": "text/plain; charset=utf-8",
    ".LICENSE": "text/plain; charset=utf-8",
    ".NOTICE": "text/plain; charset=utf-8",
}
Name = Annotated[str, Query(max_length=MAX_NAME_CHARS)]
ERRORS: dict[int | str, dict[str, object]] = {
    404: {"model": ErrorBody, "description": "Unknown dataset, document, node or run."},
    422: {"model": ErrorBody, "description": "The request is not valid (the message names the field)."},
}


@dataclass(slots=True)
class ServedDataset:
    name: str
    dataset: Dataset
    reasoner: Reasoner
    _corpus: CorpusIndex | None = None
    _chat_corpus: Corpus | None = None

    def new_session(self) -> ChatSession:
        """A dialogue over this dataset (its corpus tables built on the first one; the LLM resolves references
        the program cannot)."""
        if self._chat_corpus is None:
            r = self.reasoner
            self._chat_corpus = Corpus(self.dataset, llm=r.llm, config=r.config, conventions=r.conventions)
        return ChatSession(self._chat_corpus, llm=self.reasoner.llm)

    def find_document(self, question: str) -> str | None:
        """The document whose KG names most of the question (`kgreason.corpus`), for an ask without doc_id."""
        if self._corpus is None:
            self._corpus = CorpusIndex(sorted(self.dataset.documents), self.reasoner.index, self.reasoner.names)
        choice = self._corpus.choose(question)
        return choice.doc_ids[0] if choice.found else None


@dataclass(slots=True)
class ServeState:
    datasets: dict[str, ServedDataset]
    runs: RunCatalog
    llm_name: str
    threads: int = 4
    max_body_bytes: int = MAX_BODY_BYTES
    pool: ThreadPoolExecutor | None = field(default=None)  # answering (may wait for the LLM)
    sessions: Sessions = field(default_factory=Sessions)  # dialogues by (dataset, session_id)
    files_pool: ThreadPoolExecutor | None = field(default=None)  # reading and scoring runs: never behind the LLM


def static_files() -> dict[str, Path]:
    """The page's files, by their URL name (`app.js`, `vendor/cytoscape.min.js`): the only files served."""
    root = files("kgreason.serve") / "static"
    out: dict[str, Path] = {}
    with as_file(root) as folder:
        base = Path(folder)
        for path in sorted(base.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.suffix in CONTENT_TYPES:
                out[path.relative_to(base).as_posix()] = path
    return out


def _content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix, "application/octet-stream")


def create_app(state: ServeState) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state.pool = ThreadPoolExecutor(max_workers=state.threads, thread_name_prefix="kgreason-answer")
        state.files_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kgreason-runs")
        try:
            yield
        finally:
            for pool in (state.pool, state.files_pool):
                pool.shutdown(wait=False, cancel_futures=True)
            state.pool = state.files_pool = None

    app = FastAPI(
        title="kgreason",
        version=__version__,
        description="Explainable multi-hop answers over the served datasets' knowledge graphs: the answer, its "
        "evidence triples with their source sentences, the constraints checked, the candidates that lost; and a "
        "browser for finished runs scored against gold. See docs/serve.md.",
        docs_url=None,  # the reference page is served below with bundled assets (no CDN)
        redoc_url=None,
        lifespan=lifespan,
    )
    static = static_files()

    def dataset(name: str | None) -> ServedDataset:
        if name is None:
            if len(state.datasets) == 1:
                return next(iter(state.datasets.values()))
            raise HTTPException(422, f"dataset is needed: {len(state.datasets)} datasets are served")
        served = state.datasets.get(name)
        if served is None:
            raise HTTPException(404, f"unknown dataset {name!r}; served: {', '.join(sorted(state.datasets))}")
        return served

    def document(served: ServedDataset, doc_id: str) -> str:
        doc = served.dataset.documents.get(doc_id)
        if doc is None:
            raise HTTPException(404, f"no document {doc_id!r} in dataset {served.name!r}")
        return doc.content

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # one readable line per problem: "body.question: String should have at most 1000 characters"
        parts = []
        for err in exc.errors():
            loc = tuple(err.get("loc", ()))
            if err.get("type") == "json_invalid":
                why = (err.get("ctx") or {}).get("error", "")
                parts.append(f"the request body is not valid JSON (at character {loc[-1]}): {why}".rstrip(": "))
                continue
            parts.append(f"{'.'.join(str(x) for x in loc)}: {err.get('msg', 'invalid')}")
        return JSONResponse({"detail": "; ".join(parts) or "invalid request"}, status_code=422)

    @app.exception_handler(QuestionError)
    async def _bad_question(_: Request, exc: QuestionError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(UnknownRun)
    async def _unknown_run(_: Request, exc: UnknownRun) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(KgreasonError)
    async def _unreadable(_: Request, exc: KgreasonError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        # a bug, not bad input: said in JSON like every other error (uvicorn logs the traceback); serving goes on
        detail = f"internal error in {request.method} {request.url.path}: {type(exc).__name__}: {exc}"
        return JSONResponse({"detail": detail}, status_code=500)

    # ------------------------------------------------------------------------------------------------ page
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static["index.html"], media_type=_content_type(static["index.html"]))

    @app.get("/static/{name:path}", include_in_schema=False)
    async def static_file(name: str) -> Response:
        path = static.get(name)
        if path is None:
            raise HTTPException(404, "no such file")
        return FileResponse(path, media_type=_content_type(path), headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    async def api_reference() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="kgreason API",
            swagger_js_url="/static/vendor/swagger-ui-bundle.js",
            swagger_css_url="/static/vendor/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},  # no call to the online spec validator: offline
        )

    # ------------------------------------------------------------------------------------------------- API
    @app.get("/api/health", response_model=Health)
    async def health() -> Health:
        return Health(
            status="ok",
            version=__version__,
            llm=state.llm_name,
            datasets=len(state.datasets),
            runs=len(state.runs.folders),
        )

    @app.get("/api/datasets", response_model=list[DatasetInfo])
    async def list_datasets() -> list[DatasetInfo]:
        return [
            DatasetInfo(
                name=s.name,
                documents=len(s.dataset.documents),
                questions=len(s.dataset.questions),
                has_gold=bool(s.dataset.gold),
            )
            for s in state.datasets.values()
        ]

    @app.get("/api/datasets/{name}/documents", response_model=list[DocumentInfo], responses=ERRORS)
    async def list_documents(name: str) -> list[DocumentInfo]:
        ds = dataset(name).dataset
        return [
            DocumentInfo(
                doc_id=d.doc_id,
                chars=len(d.content),
                triples=len(ds.kgs.get(d.doc_id, ())),
                questions=sum(1 for q in ds.questions if q.doc_id == d.doc_id),
            )
            for d in ds.documents.values()
        ]

    @app.get("/api/datasets/{name}/questions", response_model=list[QuestionInfo], responses=ERRORS)
    async def list_questions(name: str, doc_id: Name | None = None) -> list[QuestionInfo]:
        ds = dataset(name).dataset
        return [
            QuestionInfo(query_id=q.query_id, doc_id=q.doc_id, question=q.question, difficulty=q.difficulty)
            for q in ds.questions
            if doc_id is None or q.doc_id == doc_id
        ]

    @app.get("/api/datasets/{name}/documents/{doc_id}", response_model=DocumentText, responses=ERRORS)
    async def get_document(name: str, doc_id: str) -> DocumentText:
        content = document(dataset(name), doc_id)
        return DocumentText(
            doc_id=doc_id, content=content, sentences=[Sentence.of(s) for s in document_sentences(content)]
        )

    @app.get("/api/datasets/{name}/documents/{doc_id}/neighbourhood", response_model=NeighbourhoodOut, responses=ERRORS)
    async def get_neighbourhood(
        name: str,
        doc_id: str,
        node: Annotated[str, Query(min_length=1, max_length=MAX_NAME_CHARS, description="A node's name.")],
        hops: Annotated[int, Query(ge=1, le=MAX_HOPS)] = 1,
        limit: Annotated[int, Query(ge=1, le=MAX_NEIGHBOURHOOD_TRIPLES)] = 200,
    ) -> NeighbourhoodOut:
        served = dataset(name)
        document(served, doc_id)
        found = neighbourhood(served.reasoner.index(doc_id), node, hops=hops, max_triples=limit)
        if found is None:
            raise HTTPException(404, f"no node {node!r} in the KG of {doc_id!r}")
        return NeighbourhoodOut.of(found)

    @app.post("/api/ask", response_model=AskResponse, responses=ERRORS)
    async def ask(request: AskRequest) -> AskResponse:
        t0 = time.monotonic()
        served = dataset(request.dataset)

        def answer(text: str) -> ExplainedAnswer:
            question = question_for(  # without doc_id the corpus index finds the document
                served.dataset, text, request.doc_id, request.difficulty, find_document=served.find_document
            )
            return answer_question(served.reasoner, question)

        def turn(session_id: str) -> tuple[ExplainedAnswer, tuple[str, ...]]:
            session, lock = state.sessions.get((served.name, session_id), served.new_session)
            with lock:  # one turn at a time per dialogue
                resolution = session.resolve(request.question)
                explained = answer(asked_question(resolution))
                session.record(resolution, as_turn_answer(explained))
                return explained, resolution.resolved

        loop = asyncio.get_running_loop()
        sid = request.session_id
        resolved: tuple[str, ...] = ()
        if sid is None:
            explained = await loop.run_in_executor(state.pool, answer, request.question)
        else:
            explained, resolved = await loop.run_in_executor(state.pool, turn, sid)
        return AskResponse.of(served.name, explained, round(time.monotonic() - t0, 4), sid, resolved)

    @app.get("/api/runs", response_model=list[RunInfo])
    async def list_runs() -> list[RunInfo]:
        return await asyncio.get_running_loop().run_in_executor(state.files_pool, state.runs.list)

    @app.get("/api/runs/items", response_model=RunItems, responses=ERRORS)
    async def run_items(
        run: Name,
        level: Annotated[str | None, Query(max_length=8)] = None,
        answer_type: Annotated[str | None, Query(max_length=MAX_NAME_CHARS)] = None,
    ) -> RunItems:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(state.files_pool, state.runs.items, run, level, answer_type)

    @app.get("/api/runs/item", response_model=RunItemDetail, responses=ERRORS)
    async def run_item(run: Name, query_id: Name) -> RunItemDetail:
        return await asyncio.get_running_loop().run_in_executor(state.files_pool, state.runs.item, run, query_id)

    app.add_middleware(BodyLimit, max_bytes=state.max_body_bytes)
    return app
