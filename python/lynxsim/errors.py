"""The exceptions of the lynxsim package: the failures the CLI reports with an exit code.

Every message is the one `lynxsim` prints after "lynxsim: " for the same input (a scenario
problem names the file, or "<dict>" for a scenario given as a dict, and the JSON path).
"""


class LynxsimError(Exception):
    """A command failed for a reason other than its input, such as a full disk (CLI exit code 1)."""

    exit_code = 1


class ScenarioError(LynxsimError, ValueError):
    """Bad input: a malformed scenario, an unknown key or name, a missing unit, an impossible value,
    an unreadable file, an output folder that may not be replaced (CLI exit code 2)."""

    exit_code = 2


class InternalError(LynxsimError, RuntimeError):
    """A broken invariant inside lynxsim, to be reported with the scenario (CLI exit code 70)."""

    exit_code = 70


def error_of(exit_code: int, message: str) -> LynxsimError:
    for kind in (ScenarioError, InternalError):
        if kind.exit_code == exit_code:
            return kind(message)
    return LynxsimError(message)
