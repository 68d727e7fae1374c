"""Checks every lynxsim command line the documentation shows against the real command line.

usage: check_doc_commands.py LYNXSIM ROOT

Reads README.md, docs/*.md and configs/*/README.md under ROOT, takes every command that starts
with `lynxsim`, `build/lynxsim` or `./build/lynxsim` (fenced code lines, with their backslash
continuations, and inline code spans), and checks that its subcommand exists (`lynxsim --help`
lists them) and that each of its --options is one `lynxsim [subcommand] --help` documents.
Placeholders (FILE, N, [--batch B]) are fine: only subcommand and option names are checked.
"""

import re
import subprocess
import sys
from pathlib import Path

COMMAND = re.compile(r"^(?:\./)?(?:build/)?lynxsim(?:\s|$)")
INLINE = re.compile(r"`((?:\./)?(?:build/)?lynxsim[^`]*)`")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def help_text(lynxsim: str, *args: str) -> str:
    return subprocess.run([lynxsim, *args, "--help"], capture_output=True, text=True,
                          check=True).stdout


def subcommands(main_help: str) -> set:
    names, listing = set(), False
    for line in main_help.splitlines():
        if line.startswith("Subcommands:"):
            listing = True
        elif listing and line.startswith("  "):
            names.add(line.split()[0])
    return names


def doc_commands(root: Path) -> list:
    files = [root / "README.md", *sorted((root / "docs").glob("*.md")),
             *sorted(root.glob("configs/*/README.md"))]
    found = []
    for path in files:
        text = path.read_text().replace("\\\n", " ")
        fenced = False
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            stripped = line.strip()
            if fenced and COMMAND.match(stripped):
                found.append((f"{path.relative_to(root)}:{number}", stripped.split("#")[0]))
            elif not fenced:
                found += [(f"{path.relative_to(root)}:{number}", m) for m in INLINE.findall(line)]
    return found


def main() -> int:
    lynxsim, root = sys.argv[1], Path(sys.argv[2])
    main_help = help_text(lynxsim)
    known = subcommands(main_help)
    helps = {None: main_help}
    problems, checked = [], 0
    for where, command in doc_commands(root):
        words = command.split()[1:]
        sub = words[0] if words and not words[0].startswith("-") and words[0] in known else None
        if words and not words[0].startswith("-") and sub is None and words[0].isidentifier():
            problems.append(f"{where}: `{command}`: no subcommand \"{words[0]}\"")
            continue
        if sub not in helps:
            helps[sub] = help_text(lynxsim, sub)
        for option in OPTION.findall(command):
            if option not in helps[sub]:
                problems.append(f"{where}: `{command}`: {option} is not an option of "
                                f"lynxsim {sub or ''}".rstrip())
        checked += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check_doc_commands: {checked} documented commands checked, {len(problems)} problems")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
