"""The section of results/paper/README.md that sets Lynx against the KV formats engines ship.

Two comparisons at equal bytes, per point and streaming mode, in both TTFT readings (spec: first
token made; commit: first token verified against the full KV):

    Lynx against FP8 at equal bytes           TTFT(fp8-e4m3) / TTFT(lynx)       (> 1: Lynx earlier)
    Lynx against NVFP4 at equal anchor bytes  TTFT(lynx-nvfp4) / TTFT(nvfp4)    (1.00: as fast as NVFP4)
                                              TTFT(lynx) / TTFT(nvfp4)

fp8-e4m3 sends 8 bits per element plus a per-tensor scale, the integer lynx 8 bits plus 32 bits of
scale and zero point per group; NVFP4 sends 4.5 bits per element, which is lynx-nvfp4's anchor and,
with groups of 64, the integer 4+4 split's anchor.
"""

import statistics

COMPARISONS = (
    ("Lynx (4+4) against FP8-E4M3, equal bytes: TTFT(fp8-e4m3) / TTFT(lynx)", "fp8-e4m3", "lynx"),
    ("lynx-nvfp4 against NVFP4, equal anchor bytes: TTFT(lynx-nvfp4) / TTFT(nvfp4)", "lynx-nvfp4", "nvfp4"),
    ("Lynx (4+4) against NVFP4, anchor bytes within 0.25 bit: TTFT(lynx) / TTFT(nvfp4)", "lynx", "nvfp4"),
)


def _spread(values: list) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.3f}, {max(values):.3f}]"


def _ratios(spec: dict, commit: dict, first: str, second: str, mode: str) -> tuple:
    keys = [k for k in spec if k[4] == mode and all(spec[k].get(m) and commit[k].get(m) for m in (first, second))]
    return keys, [spec[k][first] / spec[k][second] for k in keys], [commit[k][first] / commit[k][second] for k in keys]


def section(spec: dict, commit: dict, modes: list, streaming_text: dict) -> list:
    """Markdown lines; spec and commit are {point key: {method: mean TTFT}} (paper_report.ttft_table)."""
    lines = ["## Lynx against the formats engines ship (FP8, NVFP4)", "",
             "Ratios of mean TTFT per point, median [min, max] over the points of each streaming mode; "
             "spec is the first token made, commit the first token verified against the full KV. "
             "Precision of each format at 32K tokens is in the table above (docs/accuracy.md has all contexts).", "",
             "| comparison | streaming | points | spec: median [min, max] | commit: median [min, max] |",
             "|---|---|---|---|---|"]
    found = False
    for title, first, second in COMPARISONS:
        for mode in modes:
            keys, spec_ratios, commit_ratios = _ratios(spec, commit, first, second, mode)
            if not keys:
                continue
            found = True
            lines.append(f"| {title} | {streaming_text.get(mode, mode)} | {len(keys)} | {_spread(spec_ratios)} | "
                         f"{_spread(commit_ratios)} |")
    return lines + [""] if found else []
