"""`kgreason serve DATA_DIR...`: the HTTP API and the web page where an analyst checks answers (docs/serve.md)."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kgreason.commands import LLM_CHOICE_HELP, open_llm
from kgreason.conventions import default_conventions, load_conventions
from kgreason.data.loader import load_dataset
from kgreason.data.records import Dataset
from kgreason.errors import KgreasonError
from kgreason.llm.factory import close_llm
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import Reasoner

HELP = "\n\n".join(
    [
        "Serve the datasets over HTTP: a JSON API (reference page at /docs) and a web page at / where an analyst "
        "asks a question and sees the answer, its evidence graph, each triple's source sentence, the constraints "
        "and the candidates that lost; and browses finished runs (--runs) against gold.",
        "Datasets and the model are loaded once. Binds 127.0.0.1 unless --host says otherwise; the page needs no "
        "internet. Needs FastAPI and uvicorn: the package's serve extra.",
        "Examples:",
        "    kgreason serve examples/sample --llm none",
        "    kgreason serve examples/sample ../shared/data/ccks_ext_dev --runs runs --port 8765",
        "See docs/serve.md for the endpoints and limits.",
    ]
)


def register(app: typer.Typer) -> None:
    app.command(name="serve", help=HELP, no_args_is_help=True)(serve)


def dataset_names(roots: list[Path]) -> list[str]:
    """Each dataset's name in URLs: its folder's name; two folders with one name are refused."""
    names = [r.resolve().name or "data" for r in roots]
    seen: dict[str, Path] = {}
    for name, root in zip(names, roots, strict=True):
        if name in seen:
            raise KgreasonError(f"two datasets are named {name!r} ({seen[name]} and {root}); serve them apart")
        seen[name] = root
    return names


def serve(
    data_dirs: Annotated[
        list[Path], typer.Argument(metavar="DATA_DIR", help="Dataset folders in the task's layout (one or more).")
    ],
    host: Annotated[
        str, typer.Option("--host", help="Address to bind; anything but 127.0.0.1 exposes the data to the network.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8765,
    llm: Annotated[str, typer.Option("--llm", help=LLM_CHOICE_HELP)] = "embedded",
    runs: Annotated[
        list[Path] | None,
        typer.Option("--runs", help="A folder of finished runs (kgreason run -o FOLDER/.../result.json); repeatable."),
    ] = None,
    threads: Annotated[
        int, typer.Option("--threads", min=1, max=64, help="Questions answered at once (a thread pool).")
    ] = 4,
    conventions_file: Annotated[
        Path | None, typer.Option("--conventions", help="Annotation conventions to write answers in.")
    ] = None,
) -> None:
    if importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None:
        raise KgreasonError("kgreason serve needs FastAPI and uvicorn: pip install 'kgreason[serve]'")
    import uvicorn

    from kgreason.serve.app import ServedDataset, ServeState, create_app
    from kgreason.serve.runs import RunCatalog

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    for folder in runs or []:
        if not folder.is_dir():
            raise KgreasonError(f"--runs {folder}: not a folder")
    names = dataset_names(data_dirs)
    loaded: dict[str, Dataset] = {}
    for name, root in zip(names, data_dirs, strict=True):
        dataset, warnings = load_dataset(root, check_gold=False)
        for w in warnings[:5]:
            err.print(str(w), markup=False)
        loaded[name] = dataset
    conventions = load_conventions(conventions_file) if conventions_file is not None else default_conventions()
    model = open_llm(llm)
    try:
        served: dict[str, ServedDataset] = {}
        for name, dataset in loaded.items():
            reasoner = Reasoner(dataset, ReasonerConfig(), llm=model, conventions=conventions)
            reasoner.prepare()  # every document's index now: answering threads then only read them
            served[name] = ServedDataset(name, dataset, reasoner)
        state = ServeState(served, RunCatalog(list(runs or []), loaded), llm_name=llm.strip(), threads=threads)
        app = create_app(state)
        sock = _listen(host, port)
        bound_host, bound_port = sock.getsockname()[:2]
        if host not in ("127.0.0.1", "localhost", "::1"):
            err.print(f"warning: binding {host}: anyone who can reach it can read the served data", markup=False)
        # tests and scripts read the address from this line (port 0 picks a free port)
        err.print(f"kgreason serve: http://{bound_host}:{bound_port}/ serving {', '.join(names)}", markup=False)
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        close_llm(model)


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, bound before uvicorn starts so the real port is known up front."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.create_server((host, port), family=family, backlog=512)
    except OSError as exc:
        raise KgreasonError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock
