"""Loads a Chrome trace-event JSON file (trace.json) into SQL tables shaped like Perfetto trace
processor's, so that trace checks are written as SQL queries over the tables Perfetto users query.

Tables (the subset of Perfetto's schema the checks use, with its column names and meanings):
  process(upid, pid, name)               one row per pid ("process_name" metadata)
  thread(utid, tid, upid, name)          one row per (pid, tid) of a slice or a "thread_name"
  thread_track(id, utid)                 the slice track of each thread
  process_counter_track(id, upid, name)  one per counter series: "<event name> <args key>"
  counter(id, ts, track_id, value)
  slice(id, ts, dur, track_id, category, name, depth, arg_set_id)
  args(arg_set_id, key, int_value, string_value, real_value)   keys "args.<k>", "args.<k>[i]"
and the function EXTRACT_ARG(arg_set_id, key). Times are integer nanoseconds (the JSON's
microseconds x 1000, rounded); an instant of thread scope is a slice of dur 0 on its thread, as
Perfetto imports it; depth is the nesting depth Perfetto gives a slice inside another slice of its
thread.

With LYNXSIM_TRACE_PROCESSOR set to a trace_processor_shell binary, open() runs the same queries
in Perfetto's trace processor instead (through the `perfetto` Python package, which must then be
importable; nothing is downloaded).
"""

import json
import os
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE process(upid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);
CREATE TABLE thread(utid INTEGER PRIMARY KEY, tid INTEGER, upid INTEGER, name TEXT);
CREATE TABLE thread_track(id INTEGER PRIMARY KEY, utid INTEGER);
CREATE TABLE process_counter_track(id INTEGER PRIMARY KEY, upid INTEGER, name TEXT);
CREATE TABLE counter(id INTEGER PRIMARY KEY, ts INTEGER, track_id INTEGER, value REAL);
CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER, dur INTEGER, track_id INTEGER,
                   category TEXT, name TEXT, depth INTEGER, arg_set_id INTEGER);
CREATE TABLE args(arg_set_id INTEGER, key TEXT, int_value INTEGER, string_value TEXT,
                  real_value REAL);
"""


def _ns(microseconds: float) -> int:
    return round(microseconds * 1000)


def _flatten(prefix: str, value, out: list) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}", v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _flatten(f"{prefix}[{i}]", v, out)
    else:
        out.append((prefix, value))


class _Tables:
    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.executescript(SCHEMA)
        self.processes, self.threads, self.counter_tracks = {}, {}, {}
        self.spans = {}
        self.next_arg_set = 0

    def process(self, pid: int) -> int:
        if pid not in self.processes:
            self.processes[pid] = len(self.processes)
            self.db.execute("INSERT INTO process VALUES (?, ?, NULL)", (self.processes[pid], pid))
        return self.processes[pid]

    def thread(self, pid: int, tid: int) -> int:
        if (pid, tid) not in self.threads:
            utid = len(self.threads)
            self.threads[(pid, tid)] = utid
            self.db.execute("INSERT INTO thread VALUES (?, ?, ?, NULL)", (utid, tid, self.process(pid)))
            self.db.execute("INSERT INTO thread_track VALUES (?, ?)", (utid, utid))
        return self.threads[(pid, tid)]

    def arg_set(self, args: dict) -> int:
        flat = []
        _flatten("args", args or {}, flat)
        if not flat:
            return None
        self.next_arg_set += 1
        for key, v in flat:
            is_int = isinstance(v, int) and not isinstance(v, bool)
            self.db.execute("INSERT INTO args VALUES (?, ?, ?, ?, ?)",
                            (self.next_arg_set, key, v if is_int else None,
                             v if isinstance(v, str) else None,
                             float(v) if isinstance(v, float) else None))
        return self.next_arg_set

    def metadata(self, e: dict) -> None:
        if e["name"] == "process_name":
            upid = self.process(e["pid"])
            self.db.execute("UPDATE process SET name = ? WHERE upid = ?", (e["args"]["name"], upid))
        elif e["name"] == "thread_name":
            utid = self.thread(e["pid"], e["tid"])
            self.db.execute("UPDATE thread SET name = ? WHERE utid = ?", (e["args"]["name"], utid))

    def counter(self, e: dict) -> None:
        for key, value in e["args"].items():
            name = f"{e['name']} {key}"
            track = (e["pid"], name)
            if track not in self.counter_tracks:
                self.counter_tracks[track] = len(self.counter_tracks)
                self.db.execute("INSERT INTO process_counter_track VALUES (?, ?, ?)",
                                (self.counter_tracks[track], self.process(e["pid"]), name))
            self.db.execute("INSERT INTO counter(ts, track_id, value) VALUES (?, ?, ?)",
                            (_ns(e["ts"]), self.counter_tracks[track], float(value)))

    def span(self, e: dict) -> None:
        track = self.thread(e["pid"], e["tid"])
        dur = _ns(e["dur"]) if e["ph"] == "X" else 0
        self.spans.setdefault(track, []).append(
            (_ns(e["ts"]), dur, e.get("cat"), e["name"], self.arg_set(e.get("args"))))

    def finish(self) -> sqlite3.Connection:
        for track, spans in sorted(self.spans.items()):
            open_ends = []
            for ts, dur, cat, name, arg_set in sorted(spans, key=lambda s: (s[0], -s[1])):
                while open_ends and open_ends[-1] <= ts:
                    open_ends.pop()
                self.db.execute("INSERT INTO slice(ts, dur, track_id, category, name, depth, arg_set_id) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (ts, dur, track, cat, name, len(open_ends), arg_set))
                open_ends.append(ts + dur)
        self.db.create_function("EXTRACT_ARG", 2, self._extract_arg)
        return self.db

    def _extract_arg(self, arg_set_id, key):
        row = self.db.execute("SELECT int_value, string_value, real_value FROM args "
                              "WHERE arg_set_id = ? AND key = ?", (arg_set_id, key)).fetchone()
        return None if row is None else next((v for v in row if v is not None), None)


class SqliteTrace:
    """The trace's tables in SQLite (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        tables = _Tables()
        for e in json.loads(Path(path).read_text())["traceEvents"]:
            if e["ph"] == "M":
                tables.metadata(e)
            elif e["ph"] == "C":
                tables.counter(e)
            elif e["ph"] == "X" or (e["ph"] == "i" and e.get("s", "t") == "t"):
                tables.span(e)
        self.db = tables.finish()

    def query(self, sql: str) -> list:
        return [tuple(row) for row in self.db.execute(sql).fetchall()]

    def close(self) -> None:
        self.db.close()


class PerfettoTrace:
    """The trace loaded by Perfetto's trace processor (LYNXSIM_TRACE_PROCESSOR)."""

    def __init__(self, path: Path, binary: str) -> None:
        from perfetto.trace_processor import TraceProcessor, TraceProcessorConfig
        self.tp = TraceProcessor(trace=str(path), config=TraceProcessorConfig(bin_path=binary))

    def query(self, sql: str) -> list:
        result = self.tp.query(sql)
        columns = result.column_names
        return [tuple(getattr(row, c) for c in columns) for row in result]

    def close(self) -> None:
        self.tp.close()


def open_trace(path: Path):
    binary = os.environ.get("LYNXSIM_TRACE_PROCESSOR")
    return PerfettoTrace(path, binary) if binary else SqliteTrace(path)


def engine_name() -> str:
    binary = os.environ.get("LYNXSIM_TRACE_PROCESSOR")
    return f"Perfetto trace processor ({binary})" if binary else "SQLite tables shaped like Perfetto's"
