"""`inspector search QUERY [PATH ...]`: the turns of every session the inspector can read whose
words match QUERY, narrowed by facets (a finding's kind, a tool, the model, the agent, the
project, the date), or the counts of findings by kind, tool, model and agent (`--facets`).

The index (`inspector.search`) is brought up to date first: the person's own sessions and the
paths given (PostgreSQL servers' databases by their URLs), reading only what changed since the
last search (a server's database given: all of it)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from inspector.cli.commands import summary
from inspector.cli.error_line import say_error
from inspector.cli.exit_codes import HITS, NO_HITS, epilog
from inspector.cli.suggest import one_of
from inspector.detect import kinds
from inspector.sources import format_names
from inspector.sources.discovery import AGENTS
from inspector.sources.location import STANDARD_INPUT, location

DEFAULT_LIMIT = 20


def add_command(commands: argparse._SubParsersAction[Any]) -> None:
    """Add `search` to the command line's `commands`."""
    search = commands.add_parser(
        "search",
        help=summary("search"),
        epilog=epilog("search"),
        usage="inspector search QUERY [PATH ...] [options]",  # one positional: paths may follow options
    )
    search.add_argument(
        "words",
        nargs="*",
        metavar="QUERY",
        help='the words to find (all of them): "exact words" as a phrase, word* by its start, a OR b either; '
        '"" (or none, with --facets or a filter) for no words: the turns with findings; then any PATH: '
        "session files or folders (or PostgreSQL URLs) to index besides your own",
    )
    search.add_argument(
        "--kind", metavar="KIND", type=one_of(kinds(), "finding kind"), help="only turns with a finding of this kind"
    )
    search.add_argument("--tool", metavar="NAME", help="only turns that call this tool or have a finding about it")
    search.add_argument("--model", metavar="TEXT", help="only sessions of a model whose name holds TEXT (any case)")
    search.add_argument(
        "--agent",
        metavar="NAME",
        type=one_of([agent.name for agent in AGENTS] + format_names(), "agent or format", any_case=True),
        help="only sessions of this agent or format (any case)",
    )
    search.add_argument("--project", metavar="TEXT", help="only sessions whose project folder holds TEXT (any case)")
    search.add_argument("--since", metavar="DATE", help="only sessions from DATE (2026-11-21, 2026-11-21T14:30, 7d)")
    search.add_argument("--until", metavar="DATE", help="only sessions before DATE")
    search.add_argument(
        "--facets",
        action="store_true",
        help="count the findings by kind, tool, model and agent instead of listing turns",
    )
    search.add_argument("--json", action="store_true", help="print one JSON document (schema 1, docs/search.md)")
    search.add_argument(
        "--limit", type=int, default=DEFAULT_LIMIT, metavar="N", help=f"hits shown (default {DEFAULT_LIMIT})"
    )
    search.add_argument("--reindex", action="store_true", help="build the index again from scratch")
    search.parse_known_args = _paths_after_options(search.parse_known_args)
    search.set_defaults(run=_run)


def _paths_after_options(parse: Callable[..., tuple[argparse.Namespace, list[str]]]) -> Callable[..., Any]:
    """`parse` (a parser's `parse_known_args`) taking the paths given after an option too
    (`search notes --json PATH`), which argparse leaves over once the positionals are read."""

    def parse_around_options(
        args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, left = parse(args, namespace)
        paths = [word for word in left if not word.startswith("-")]
        if paths and isinstance(getattr(parsed, "words", None), list):
            parsed.words.extend(paths)
            left = [word for word in left if word.startswith("-")]
        return parsed, left

    return parse_around_options


def _run(args: argparse.Namespace) -> int:
    from inspector.errors import InspectorError
    from inspector.search import SearchFilter, facet_counts, index_path, index_targets, open_index, search, update_index
    from inspector.search.dates import parse_date
    from inspector.search.output import facets_as_text, hits_as_text, search_document
    from inspector.support.safe_text import shown_name

    if args.limit < 1:
        raise InspectorError(f"--limit {args.limit}: give a number of hits of 1 or more")
    chosen = SearchFilter(
        args.kind,
        args.tool,
        args.model,
        args.agent,
        args.project,
        None if args.since is None else parse_date(args.since),
        None if args.until is None else parse_date(args.until),
    )
    if not args.words and not args.facets and chosen == SearchFilter():
        raise InspectorError('search: give the words to find ("" for none), or --facets, or a filter such as --kind')
    query, paths = (args.words or [""])[0], [location(path) for path in args.words[1:]]
    if STANDARD_INPUT in args.words[1:]:
        raise InspectorError(
            "search: standard input (-) is no file the index can keep; save it to a file and give that"
        )
    targets = index_targets(paths)
    path = index_path()
    connection = open_index(path, fresh=args.reindex)
    try:
        update = update_index(connection, targets, lambda line: print(f"inspector: {line}", file=sys.stderr))
        for error in update.errors:
            say_error(error)
        hits = search(connection, query, chosen, args.limit)
        counts = facet_counts(connection, query, chosen) if args.facets else None
    finally:
        connection.close()
    if args.json:
        document = search_document(query, chosen, hits, counts, update, str(path))
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    elif counts is not None:
        sys.stdout.write(facets_as_text(counts))
    else:
        sys.stdout.write(hits_as_text(hits, sys.stdout.isatty()))
    if not targets and not hits:
        print(f"inspector: no sessions of your own found; the index is at {shown_name(path)}", file=sys.stderr)
    found = any(counts.values()) if counts is not None else bool(hits)
    return HITS if found else NO_HITS
