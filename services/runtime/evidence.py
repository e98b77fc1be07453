"""Evidence images, stored by content: the exact bytes the reader was given, named by their
SHA-256, so a dispute months later can see what the reader saw and prove it is the same image.
Retention: seed 002 Anexo I §3.2 requires one year for recordings (BO).

Shared infrastructure, not a service's own: the vision service writes the frames and the
projector's dashboard shows them, and neither may import the other.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


class EvidenceStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def put(self, data: bytes, suffix: str = ".jpg") -> tuple[str, Path]:
        """Store `data` (idempotent); returns its SHA-256 and where it lies."""
        digest = hashlib.sha256(data).hexdigest()
        path = self.root / digest[:2] / f"{digest}{suffix}"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".part")
            tmp.write_bytes(data)
            tmp.replace(path)  # never a half-written evidence file under its final name
        return digest, path

    def path_of(self, digest: str) -> Path | None:
        matches = list((self.root / digest[:2]).glob(f"{digest}.*")) if len(digest) == 64 else []
        return matches[0] if matches else None
