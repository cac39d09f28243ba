"""The ``meldhall`` command: serve, db, vectors, simulate, play, bench."""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from collections.abc import Sequence

from meldhall.core.errors import MeldhallError
from meldhall.server.settings import add_arguments as add_settings
from meldhall.store.dbcli import add_commands as add_db_commands


def _cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from meldhall.server.app import create_app
    from meldhall.server.limits import Limits
    from meldhall.server.logs import log_config
    from meldhall.server.settings import from_args
    from meldhall.server.wire import PROTOCOL_PATH

    settings = from_args(args)  # --workers above 1 needs --redis-url (refused there)
    limits = Limits.from_env()
    if settings.workers > 1:  # processes of one site: each builds its app from the variables
        import os

        os.environ.update(settings.to_env())
        uvicorn.run(
            "meldhall.server.app:app_from_env",
            factory=True,
            workers=settings.workers,
            host=settings.host,
            port=settings.port,
            log_config=log_config(settings.log_level, settings.log_format),
            ws=PROTOCOL_PATH,
            ws_per_message_deflate=False,
            proxy_headers=True,
            timeout_keep_alive=max(1, round(limits.header_seconds)),
            ws_max_size=limits.max_frame_bytes,
        )
        return 0
    uvicorn.run(
        create_app(settings=settings, limits=limits),
        host=settings.host,
        port=settings.port,
        log_config=log_config(settings.log_level, settings.log_format),
        ws=PROTOCOL_PATH,  # whole text frames read and written without the ASGI layers
        # Per-message compression cost the server a third of its time under load (bench server).
        ws_per_message_deflate=False,
        proxy_headers=True,
        timeout_keep_alive=max(1, round(limits.header_seconds)),
        ws_max_size=limits.max_frame_bytes,
    )
    return 0


def _cmd_db(args: argparse.Namespace) -> int:
    from meldhall.store.dbcli import main as db_main

    return db_main(args)


def _cmd_vectors(args: argparse.Namespace) -> int:
    from meldhall.vectors import main as run_vectors
    from meldhall.vectors import repo_vector_files

    return run_vectors(args.files or [str(p) for p in repo_vector_files()])


def _cmd_simulate(args: argparse.Namespace) -> int:
    from meldhall.simulate_cli import main as simulate_main

    return simulate_main(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from meldhall.play_cli import main as play_main

    return play_main(args)


def _cmd_replay(args: argparse.Namespace) -> int:
    from meldhall.replay_cli import replay_main

    return replay_main(args)


def _cmd_verify(args: argparse.Namespace) -> int:
    from meldhall.replay_cli import verify_main

    return verify_main(args)


def _cmd_review(args: argparse.Namespace) -> int:
    from meldhall.replay_cli import review_main

    return review_main(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from meldhall.games.registry import GAME_MODULES

    print(f"python {platform.python_version()} on {platform.machine()}, cpus {_cpus()}")
    name = args.name.replace("-", "_")
    try:
        module = importlib.import_module(f"meldhall.bench.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"meldhall.bench.{name}":
            print(
                f"bench {args.name}: a peer it needs is missing ({exc.name}); "
                "install it with `make bench-deps`",
                file=sys.stderr,
            )
            return 2
        if args.name not in GAME_MODULES:
            print(f"no bench named {args.name!r}", file=sys.stderr)
            return 2
        module = importlib.import_module("meldhall.bench.hands")
    code: int = module.main(args)
    return code


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``meldhall`` command."""
    parser = argparse.ArgumentParser(prog="meldhall", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve the web app (docs/operations.md)")
    add_settings(serve)
    serve.set_defaults(func=_cmd_serve)

    add_db_commands(sub.add_parser("db", help="database schema and upkeep"))
    sub.choices["db"].set_defaults(func=_cmd_db)

    vec = sub.add_parser("vectors", help="run rule test-vector files")
    vec.add_argument("files", nargs="*", help="vector files (default: the repository's vectors/)")
    vec.set_defaults(func=_cmd_vectors)

    sim = sub.add_parser("simulate", help="whole matches between bots")
    sim.add_argument("game")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", default="simulate")
    sim.add_argument("--bots", default="", help="comma-separated bot names, one per seat")
    sim.add_argument("--seats", type=int, default=0, help="number of seats (default: game's)")
    sim.add_argument("--check", action="store_true", help="check invariants at every step")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--save", default="", metavar="DIR", help="write a match file per match")
    sim.set_defaults(func=_cmd_simulate)

    play = sub.add_parser("play", help="play in the terminal against bots")
    play.add_argument("game")
    play.add_argument("--seed", default=None)
    play.add_argument("--bots", "--bot", dest="bot", default="", help="bot level of the others")
    play.add_argument("--seat", type=int, default=0, help="the person's seat")
    play.add_argument("--seats", type=int, default=0)
    play.set_defaults(func=_cmd_play)

    rep = sub.add_parser("replay", help="print a match file move by move")
    rep.add_argument("file")
    rep.add_argument("--hand", type=int, default=None, help="only this hand (1 = the first)")
    rep.set_defaults(func=_cmd_replay)

    rev = sub.add_parser("review", help="the strong bot's review of one seat's decisions")
    rev.add_argument("file")
    rev.add_argument("--seat", type=int, required=True)
    rev.add_argument("--json", default="", metavar="OUT", help="write the review as JSON")
    rev.add_argument("--quiet", action="store_true", help="no progress bar")
    rev.set_defaults(func=_cmd_review)

    ver = sub.add_parser("verify", help="check a match file: deal, every action, the result")
    ver.add_argument("file")
    ver.set_defaults(func=_cmd_verify)

    bench = sub.add_parser("bench", help="benchmarks against peers")
    bench.add_argument("name")
    bench.add_argument("--cases", type=int, default=0, help="cases per batch (0: the bench's)")
    bench.add_argument("--batches", type=int, default=5)
    bench.add_argument("--seed", default="bench")
    bench.add_argument("--seconds", type=float, default=0.0, help="time budget per batch")
    bench.add_argument("--database-url", default="", help="bench server: also on this database")
    bench.add_argument("--redis-url", default="", help="bench server: the site's Redis")
    bench.add_argument("--processes", type=int, default=1, help="bench server: processes")
    bench.set_defaults(func=_cmd_bench)
    importlib.import_module("meldhall.tournament").add_parser(sub)
    importlib.import_module("meldhall.quarantine_cli").register(sub)
    importlib.import_module("meldhall.moderation_cli").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except MeldhallError as exc:
        print(f"meldhall: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    raise SystemExit(main())
