"""The figures `sweep.py plot --kind` draws, and the columns each one reads.

Kept apart from plots.py so the command line can list the kinds without importing matplotlib.
"""

KINDS = {
    "ttft-vs-context": "mean TTFT (s) against context length (tokens) per method, one panel per "
                       "bandwidth and reading (first token, first verified token)",
    "speedup-vs-bandwidth": "TTFT speedup over int8 and over bf16 against bandwidth (Gb/s), first "
                            "token and first verified token",
    "ttft-vs-bandwidth": "mean TTFT (s) against bandwidth (Gb/s) per method, first token and first "
                         "verified token",
    "accuracy-vs-ttft": "accuracy metric against mean TTFT (s), with the trade-off frontier",
    "ttft-cdf": "CDF of per-request TTFT (s), per method (reads requests.csv)",
    "exposed-vs-context": "mean exposed transfer time (s) against context length per method, one "
                          "panel per bandwidth",
}
