"""The engine is pure Python: importing it loads no Django, DRF or Celery (design 1)."""

import subprocess
import sys

CODE = """
import sys
import fivehundred.engine
import fivehundred.engine.playout
bad = sorted(m for m in sys.modules
             if m.split('.')[0] in ('django', 'rest_framework', 'celery', 'kombu', 'drf_spectacular'))
print(','.join(bad))
"""


def test_engine_imports_no_framework() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, check=True, env={}
    )
    assert out.stdout.strip() == ""


def test_engine_imports_nothing_of_ours_outside_engine() -> None:
    code = (
        "import sys, fivehundred.engine\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('fivehundred')"
        " and m != 'fivehundred' and not m.startswith('fivehundred.engine'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
