#!/usr/bin/env python3
"""Generate a real OpenCode session in its older JSON storage (before `opencode.db`) against the
scripted mock Chat Completions API.

Usage:
    python3 sessions/generate/opencode_legacy.py [OUT_DIR] [--opencode PATH] [--keep]

OUT_DIR defaults to sessions/.  PATH defaults to $OPENCODE_BIN, else
$NPM_TOOLS/opencode-legacy/node_modules/.bin/opencode, else the binary on $PATH; it must be a
release that keeps its sessions as JSON files (`opencode-ai` 1.1.65 is the last one).

What it does: the same scenario, config and runs as `opencode.py` (`opencode run`, then
`opencode run --continue`), then copies the one session's files from
`$HOME/.local/share/opencode/storage/` to OUT_DIR/opencode-storage/, keeping their layout:
`session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json` and
`part/<messageID>/<partID>.json`, the temp paths replaced by fixed placeholders.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from harness import DEFAULT_OUT, NPM_TOOLS, TempRun, find_binary, out_dir
from opencode import USER_TURNS, Tool, env_for, make_responder, scrubbed, write_config

SAMPLE = "opencode-storage"


def copy_session(storage: Path, dest: Path, run: TempRun) -> str:
    """Copy the one session of `storage` (its file, messages and their parts) into `dest`, scrubbed;
    the session's id."""
    found = sorted(storage.glob("session/*/ses_*.json"))
    if len(found) != 1:
        sys.exit(f"expected one session in {storage}, found {len(found)}")
    session = found[0]
    files = [session]
    for message in sorted((storage / "message" / session.stem).glob("msg_*.json")):
        files.append(message)
        files.extend(sorted((storage / "part" / message.stem).glob("prt_*.json")))
    if dest.exists():
        shutil.rmtree(dest)
    for source in files:
        target = dest / source.relative_to(storage)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(scrubbed(run, source.read_text()))
    print(f"wrote {len(files)} files to {dest} from {storage}")
    return session.stem


def main() -> None:
    """Run the scenario with the JSON-storage release and copy its session."""
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=str(DEFAULT_OUT))
    parser.add_argument("--opencode", help="an opencode binary that keeps JSON storage (1.1.65)")
    parser.add_argument("--keep", action="store_true", help="keep the temp folders")
    args = parser.parse_args()
    tool = Tool(kilo=False)
    default = str(NPM_TOOLS / "opencode-legacy" / "node_modules" / ".bin" / "opencode")
    binary = find_binary("opencode", args.opencode, "opencode-ai@1.1.65", [default])
    out = out_dir(args.out)
    run = TempRun("oc")
    with run.mock(make_responder(run.work), max_requests=80) as srv:
        write_config(run, tool, srv.url)
        cmds = [[binary, "run", *(["--continue"] if i else []), turn] for i, turn in enumerate(USER_TURNS)]
        run.run_each(tool.name, cmds, env_for(run), f"{tool.name}-output.txt")
    copy_session(Path(run.home, tool.data, "storage"), out / SAMPLE, run)
    run.finish(args.keep)
    subprocess.run([binary, "--version"], check=False)


if __name__ == "__main__":
    main()
