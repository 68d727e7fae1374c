"""docs/python.md's example runs as written: its Python blocks in order, in one namespace, in a
folder where scenarios/ is the repository's, with a fresh accuracy cache (HOME)."""

import re

import matplotlib

from conftest import ROOT

BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def test_the_example_runs_and_draws_its_figure(tmp_path, monkeypatch, capsys):
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    blocks = BLOCK.findall((ROOT / "docs" / "python.md").read_text())
    assert len(blocks) == 4
    namespace = {}
    for block in blocks:
        exec(compile(block, "docs/python.md", "exec"), namespace)
    assert (tmp_path / "ttft-vs-bandwidth.png").stat().st_size > 10_000
    ttft = namespace["ttft"]
    assert list(ttft.index) == [10, 25, 50, 100, 200]
    assert set(ttft.columns) == {"bf16", "int8", "int4", "lynx", "cachegen"}
    assert (ttft["bf16"].diff().dropna() <= 0).all()
    printed = capsys.readouterr().out
    assert "/network/bandwidth" in printed
    matplotlib.pyplot.close("all")
