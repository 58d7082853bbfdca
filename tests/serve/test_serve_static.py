"""The page's files: present in the package, only local references (the page works offline), the bundled
libraries listed with their licences beside them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="kgreason serve needs the serve extra (pip install 'kgreason[serve]')")

from kgreason.serve.app import static_files

VENDOR_README = Path(__file__).resolve().parents[2] / "src" / "kgreason" / "serve" / "static" / "vendor" / "README.md"


def test_page_files_are_packaged() -> None:
    files = static_files()
    expected = {"index.html", "app.js", "app.css", "favicon.svg", "vendor/cytoscape.min.js", "vendor/README.md"}
    expected |= {"vendor/cytoscape.LICENSE", "vendor/swagger-ui-bundle.js", "vendor/swagger-ui.css"}
    expected |= {"vendor/swagger-ui.LICENSE", "vendor/swagger-ui.NOTICE"}
    assert expected <= set(files)
    assert all(p.is_file() and p.stat().st_size > 0 for p in files.values())


def test_page_refers_to_no_other_host() -> None:
    files = static_files()
    for name in ("index.html", "app.js", "app.css"):
        text = files[name].read_text(encoding="utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), name
    page = files["index.html"].read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href)="([^"]+)"', page):
        assert ref.startswith("/static/") or ref == "/docs", ref
        if ref.startswith("/static/"):
            assert ref.removeprefix("/static/") in files, ref


def test_bundled_libraries_are_documented() -> None:
    readme = VENDOR_README.read_text(encoding="utf-8")
    for needle in ("cytoscape | 3.34.4", "swagger-ui-dist | 5.35.0", "npm pack cytoscape@3.34.4", "cytoscape.LICENSE"):
        assert needle in readme
    head = static_files()["vendor/cytoscape.min.js"].read_text(encoding="utf-8")[:400]
    assert "3.34.4" in head or "cytoscape" in head.lower()
