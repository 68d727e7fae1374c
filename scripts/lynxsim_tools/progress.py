"""A one-line text progress bar on stderr.

Each update rewrites the line with a carriage return: a bar, done/total, failures, elapsed time and
an estimate of the time left (elapsed / finished * remaining, counting only points run in this
session, not those skipped as already done). When the stream is not a terminal (a log file, a
Slurm job) a full line is written every `log_every` points instead, so logs stay readable.
"""

import sys
import time


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class ProgressBar:
    def __init__(self, total: int, stream=None, width: int = 30, log_every: int = 10):
        self.total = total
        self.stream = stream or sys.stderr
        self.width = width
        self.log_every = max(1, log_every)
        self.finished = 0
        self.failed = 0
        self.started_at = time.monotonic()
        self.interactive = hasattr(self.stream, "isatty") and self.stream.isatty()

    def line(self) -> str:
        fraction = self.finished / self.total if self.total else 1.0
        filled = int(round(fraction * self.width))
        elapsed = time.monotonic() - self.started_at
        left = elapsed / self.finished * (self.total - self.finished) if self.finished else 0.0
        failed = f", {self.failed} failed" if self.failed else ""
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.finished}/{self.total}"
                f"{failed}  {format_duration(elapsed)} elapsed, {format_duration(left)} left")

    def advance(self, ok: bool = True) -> None:
        self.finished += 1
        self.failed += 0 if ok else 1
        if self.interactive:
            self.stream.write("\r" + self.line())
        elif self.finished % self.log_every == 0 or self.finished == self.total:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.interactive and self.total:
            self.stream.write("\n")
            self.stream.flush()
