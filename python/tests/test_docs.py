"""docs/python.md's first program runs as printed."""

import re

from conftest import SOURCE_DIR


def test_the_first_program_runs(capsys):
    page = (SOURCE_DIR / "docs" / "python.md").read_text()
    section = page.split("## A first program", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    scope = {}
    exec(compile(code, "docs/python.md", "exec"), scope)
    walkers = scope["walkers"]
    assert len(walkers) == 49 and walkers.time >= 10.0 - 1e-6
    assert scope["sim"].step_count == 100
    assert "[[" in capsys.readouterr().out
