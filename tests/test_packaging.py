"""Every folder of Python code is a regular package (it has __init__.py).

`[tool.setuptools.packages.find]` finds regular packages only: a folder without __init__.py
works from the source tree (an editable install, the tests) but is left out of a built
wheel, so `casino vision read --kind dice` failed there while services/vision/dice/ had none.
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_code_folder_has_an_init_module():
    folders = {p.parent for top in ("services", "contracts", "deploy")
               for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts}
    assert sorted(str(f.relative_to(ROOT)) for f in folders
                  if not (f / "__init__.py").exists()) == []
