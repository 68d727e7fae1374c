"""Runs lynxsim against output paths it must not destroy and checks that nothing is lost.

usage: check_output_guard.py LYNXSIM WORK_DIR

- an --out that is a regular file, a folder of other files or a link is refused with exit code 2
  and left exactly as it was;
- an empty folder, a new path and a lynxsim results folder are written (the latter replaced);
- --force replaces a folder that is not lynxsim's;
- a stale staging folder of a dead process is removed by the next run, a user's look-alike is not.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
OVERRIDES = ['methods=["int8"]', "accuracy.enabled=false",
             'workload.requests=[{"context":1024,"output":4}]']


def run(lynxsim: str, out: Path, *extra: str) -> subprocess.CompletedProcess:
    command = [lynxsim, "--scenario", str(ROOT / "scenarios" / "quickstart.json"), "--out", str(out),
               "--quiet", *extra]
    for o in OVERRIDES:
        command += ["--set", o]
    return subprocess.run(command, capture_output=True, text=True)


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def expect(problems: list, condition: bool, text: str) -> None:
    if not condition:
        problems.append(text)


def check_refusals(lynxsim: str, work: Path, problems: list) -> None:
    user_file = work / "notes.txt"
    user_file.write_text("my notes")
    done = run(lynxsim, user_file)
    expect(problems, done.returncode == 2 and "--force" in done.stderr, f"file: {done.returncode} {done.stderr}")
    expect(problems, user_file.read_text() == "my notes", "a regular file --out was changed")

    user_dir = work / "documents"
    user_dir.mkdir()
    (user_dir / "thesis.tex").write_text("chapter 1")
    done = run(lynxsim, user_dir)
    expect(problems, done.returncode == 2, f"folder: {done.returncode} {done.stderr}")
    expect(problems, sorted(os.listdir(user_dir)) == ["thesis.tex"], "a user folder --out was changed")

    link = work / "link"
    link.symlink_to(user_dir)
    done = run(lynxsim, link)
    expect(problems, done.returncode == 2 and link.is_symlink(), f"link: {done.returncode} {done.stderr}")
    expect(problems, sorted(os.listdir(user_dir)) == ["thesis.tex"], "a linked folder was changed")
    expect(problems, sorted(os.listdir(work)) == ["documents", "link", "notes.txt"],
           f"something was left beside the refused targets: {sorted(os.listdir(work))}")


def check_writes(lynxsim: str, work: Path, problems: list) -> None:
    empty = work / "empty"
    empty.mkdir()
    for target in (empty, work / "new", work / "new"):
        done = run(lynxsim, target)
        expect(problems, done.returncode == 0, f"{target}: {done.returncode} {done.stderr}")
    manifest = json.loads((work / "new" / "lynxsim-results.json").read_text())
    expect(problems, manifest.get("tool") == "lynxsim" and "summary.json" in manifest.get("files", []),
           f"manifest: {manifest}")
    forced = work / "documents"
    done = run(lynxsim, forced, "--force")
    expect(problems, done.returncode == 0 and (forced / "summary.json").exists()
           and not (forced / "thesis.tex").exists(), f"--force: {done.returncode} {done.stderr}")


def check_stale_staging(lynxsim: str, work: Path, problems: list) -> None:
    pid = dead_pid()
    stale = work / f"new.tmp-{pid}"
    stale.mkdir()
    (stale / "lynxsim-results.json").write_text('{"tool": "lynxsim", "schema_version": 1, "files": []}')
    (stale / "summary.json").write_text("partial")
    lookalike = work / f"new.old-{pid}"
    lookalike.mkdir()
    (lookalike / "keep.txt").write_text("not lynxsim's")
    done = run(lynxsim, work / "new")
    expect(problems, done.returncode == 0, f"stale: {done.returncode} {done.stderr}")
    expect(problems, not stale.exists(), "a stale staging folder of a dead process was not removed")
    expect(problems, (lookalike / "keep.txt").exists(), "a user folder named like staging was removed")


def main() -> int:
    lynxsim, work = sys.argv[1], Path(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    problems: list = []
    check_refusals(lynxsim, work, problems)
    check_writes(lynxsim, work, problems)
    check_stale_staging(lynxsim, work, problems)
    for p in problems:
        print(f"FAIL: {p}")
    print("output guard: ok" if not problems else "output guard: failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
