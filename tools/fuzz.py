"""Coverage-guided fuzzing of the tower's doors and files with atheris (docs/development.md,
"Fuzzing").

    python tools/fuzz.py --list                  the targets, from every tests/fuzz/targets_*.py
    python tools/fuzz.py TARGET --seconds 600    fuzz one for ten minutes
    python tools/fuzz.py TARGET --replay FILE    run one input through it, without atheris

The corpus a run grows is kept in tests/fuzz/corpus/TARGET (ignored by git), so the next run
starts where this one stopped; tests/fuzz/seeds/TARGET/, where there is one, seeds it, and
tests/fuzz/dicts/TARGET.dict, where there is one, is libFuzzer's dictionary for it (words that
byte mutation seldom builds: the keys a reader knows, a run of "[", a time no clock can show).
An input that makes a target fail is saved as tests/fuzz/found/TARGET/<its hash>, which the
suite then replays for good (tests/fuzz/test_fuzz_found.py), and the command to replay it is
printed.
atheris (PyPI, the extra `fuzz`) is needed only to fuzz: --help, --list and --replay run
without it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import logging
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "tests" / "fuzz"
NO_ATHERIS = (
    "atheris is not installed; fuzzing needs it: .venv/bin/pip install -e '.[fuzz]' "
    "(wheels for CPython 3.11 on x86-64 and aarch64 Linux)"
)
# What coverage is measured on: the code behind the doors (the targets and the tests' helpers
# are not instrumented, so the figures atheris prints are the tower's and the league's).
INSTRUMENTED = ["firmware_py", "drivers", "sheets"]
Target = Callable[[bytes], None]


def target_modules() -> list[Path]:
    return sorted(FUZZ.glob("targets_*.py"))


def load_targets() -> dict[str, Target]:
    """Every target of every tests/fuzz/targets_*.py, by name; a name twice is an error."""
    for folder in (str(ROOT / "tests"), str(ROOT)):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    found: dict[str, Target] = {}
    for path in target_modules():
        spec = importlib.util.spec_from_file_location(f"fuzz_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for name, target in module.TARGETS.items():
            if name in found:
                raise SystemExit(f"fuzz target {name} is in two modules; rename one")
            found[name] = target
    return found


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="fuzz.py", description="Fuzz one of the tower's doors or files with atheris."
    )
    parser.add_argument("target", nargs="?", help="a target's name (see --list)")
    parser.add_argument("--seconds", type=int, default=600, help="how long (default 600)")
    parser.add_argument("--list", action="store_true", help="list the targets and stop")
    parser.add_argument("--replay", type=Path, help="run this input through the target, once")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def atheris_or_none() -> Any:
    try:
        return importlib.import_module("atheris")
    except ImportError:
        return None


def fuzz_here(name: str, libfuzzer_args: list[str]) -> None:
    """In the child: atheris on the target, its product code instrumented for coverage."""
    atheris = atheris_or_none()
    logging.disable(logging.CRITICAL)  # the doors log what they refuse: millions of lines here
    with atheris.instrument_imports(include=INSTRUMENTED):
        target = load_targets()[name]
    atheris.Setup([sys.argv[0], *libfuzzer_args], target)
    atheris.Fuzz()


def fuzz(name: str, seconds: int) -> int:
    """Run atheris in a child process (libFuzzer ends the process at a crash), then keep what
    it found."""
    corpus = FUZZ / "corpus" / name
    corpus.mkdir(parents=True, exist_ok=True)
    seeds = FUZZ / "seeds" / name
    with tempfile.TemporaryDirectory(prefix="qwixx-fuzz-") as crashes:
        libfuzzer = [str(corpus), *([str(seeds)] if seeds.is_dir() else []),
                     f"-max_total_time={seconds}", f"-artifact_prefix={crashes}/",
                     "-print_final_stats=1", "-timeout=60", "-rss_limit_mb=3072",
                     # longer inputs early: a target that builds a table runs 50 to 500 inputs
                     # a second, and libFuzzer's default (100) held them to 14 bytes for minutes
                     "-len_control=10", *dictionary_flag(name)]  # fmt: skip
        command = [sys.executable, __file__, name, "--child", "--", *libfuzzer]
        status = subprocess.run(command, check=False).returncode
        saved = [keep(name, path) for path in sorted(Path(crashes).iterdir())]
    for path in saved:
        shown = path.relative_to(ROOT)
        print(f"\nA failing input is saved as {shown}. Replay it with:\n"
              f"  python tools/fuzz.py {name} --replay {shown}\n"
              f"  python -m pytest tests/fuzz/test_fuzz_found.py -k {name}")  # fmt: skip
    return status if saved or status != 0 else 0


def dictionary_flag(name: str) -> list[str]:
    """`-dict=` with the target's dictionary, where it has one."""
    path = dictionary(name)
    return [f"-dict={path}"] if path.is_file() else []


def dictionary(name: str) -> Path:
    return FUZZ / "dicts" / f"{name}.dict"


def keep(name: str, artifact: Path) -> Path:
    """An input libFuzzer left (crash-, timeout-, oom-) under found/TARGET/, named by its hash."""
    data = artifact.read_bytes()
    found = FUZZ / "found" / name
    found.mkdir(parents=True, exist_ok=True)
    path = found / hashlib.sha256(data).hexdigest()[:16]
    shutil.copyfile(artifact, path)
    return path


def main() -> int:
    if "--child" in sys.argv:  # (libFuzzer's own flags follow "--", unparsed here)
        cut = sys.argv.index("--")
        fuzz_here(sys.argv[1], sys.argv[cut + 1 :])
        return 0
    args = arguments()
    if args.list:
        for name in sorted(load_targets()):
            print(name)
        return 0
    if args.target is None:
        raise SystemExit("name a target (python tools/fuzz.py --list shows them)")
    targets = load_targets()
    if args.target not in targets:
        raise SystemExit(f"no target {args.target}; there are: {', '.join(sorted(targets))}")
    if args.replay is not None:
        targets[args.target](args.replay.read_bytes())
        print(f"{args.replay}: {args.target} passed")
        return 0
    if atheris_or_none() is None:
        raise SystemExit(NO_ATHERIS)
    return fuzz(args.target, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
