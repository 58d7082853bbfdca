"""Files `kgreason extract` writes per document, atomically: `KG_<doc_id>.json` (the task's format) and
`provenance_<doc_id>.jsonl` (one line per triple: its sentence, span and the mentions the sentence holds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kgreason.data.jsonio import write_json_atomic, write_text_atomic
from kgreason.data.validate import kg_file_name
from kgreason.extract.pipeline import DocumentKG, Provenance


def provenance_file_name(doc_id: str) -> str:
    return f"provenance_{doc_id}.jsonl"


def kg_json(doc: DocumentKG) -> list[dict[str, Any]]:
    return [
        {
            "triple_id": t.triple_id,
            "sub": t.sub,
            "sub_type": t.sub_type,
            "relation": t.relation,
            "obj": t.obj,
            "obj_type": t.obj_type,
        }
        for t in doc.kg
    ]


def provenance_json(p: Provenance) -> dict[str, Any]:
    s = p.sourced
    return {
        "triple_id": s.triple.triple_id,
        "doc_id": s.doc_id,
        "sentence": s.sentence,
        "span": list(s.span),
        "sentence_text": p.sentence_text,
        "sub_mention": p.sub_mention,
        "obj_mention": p.obj_mention,
        "found": {"sub": p.how[0], "obj": p.how[1]},
    }


def write_document(out_dir: Path, doc: DocumentKG) -> tuple[Path, Path]:
    """Write both files of `doc`; the KG last, so a KG file on disk always has its provenance beside it."""
    prov_path = out_dir / provenance_file_name(doc.doc_id)
    lines = "".join(json.dumps(provenance_json(p), ensure_ascii=False) + "\n" for p in doc.triples)
    write_text_atomic(prov_path, lines)
    kg_path = out_dir / kg_file_name(doc.doc_id)
    write_json_atomic(kg_path, kg_json(doc))
    return kg_path, prov_path
