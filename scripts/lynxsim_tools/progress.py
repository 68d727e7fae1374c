"""The progress bar of a sweep on stderr (tqdm): done/total, failures, elapsed time and ETA.

The estimate counts only the points run in this session, not those skipped as already done. On a
terminal the bar redraws at most five times a second; when the stream is not a terminal (a log
file, a Slurm job) it is written at most every 30 s, as plain ASCII, so logs stay short.
"""

import sys

from tqdm import tqdm


class ProgressBar:
    def __init__(self, total: int, stream=None, desc: str = "points"):
        self.stream = stream or sys.stderr
        interactive = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.failed = 0
        self._bar = tqdm(total=total, file=self.stream, desc=desc, unit="pt", ascii=not interactive,
                         mininterval=0.2 if interactive else 30.0, dynamic_ncols=interactive,
                         smoothing=0.1)

    def advance(self, ok: bool = True) -> None:
        if not ok:
            self.failed += 1
            self._bar.set_postfix_str(f"{self.failed} failed", refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()
