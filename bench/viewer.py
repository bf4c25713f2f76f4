"""Benchmark: server time of the replay viewer for a complete four-player game.

    .venv/bin/python bench/viewer.py [--runs R] [--steps S]

In-process with the Django test client and the embedded SQLite settings (a throwaway database
file in a temporary folder). Stores one complete four-player game played by the heuristic bots,
then reports the median of R runs of:

- the viewer page, first view (the game's replay cache emptied before each run: what the first
  visitor of a record waits for), and again with the replay cached;
- one step request (the fragment the page fetches per key press), open view and one seat's view,
  over S positions spread across the game;
- the replay API for the whole game (every step, all hands open).

The goal is a first view under 300 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _setup(folder: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivehundred.test_settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)


def _timed(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _setup(folder)
        from django.test import Client

        from fivehundred.record.play import play_game
        from replays import viewer
        from replays.services import record_ingest

        data = play_game(players=4, seed="bench-viewer", bots=["heuristic"] * 4)
        record, _ = record_ingest(data=data)
        game = viewer.walk(record.data)
        positions = game.positions
        print(
            f"game: {len(data['hands'])} hands, {len(positions)} positions, "
            f"result {data.get('result')}"
        )
        client = Client()
        page = f"/records/{record.pk}/"

        def get(path: str, query: dict[str, Any] | None = None) -> None:
            response = client.get(path, query or {})
            assert response.status_code == 200, (path, query, response.status_code)

        def first_view() -> None:
            viewer._WALKS.clear()
            get(page)

        get(page)  # warm the imports and templates
        cold = _timed(first_view, args.runs)
        warm = _timed(lambda: get(page), args.runs)
        picks = positions[:: max(1, len(positions) // args.steps)][: args.steps]
        step_url = f"/records/{record.digest[:12]}/step/"
        open_times, seat_times = [], []
        for hand, action in picks:
            open_times.append(
                _timed(lambda h=hand, a=action: get(step_url, {"hand": h, "action": a}), 3)
            )
            seat_times.append(
                _timed(
                    lambda h=hand, a=action: get(step_url, {"hand": h, "action": a, "seat": 1}), 3
                )
            )
        replay = _timed(lambda: get(f"/api/v1/records/{record.pk}/replay/"), max(3, args.runs // 3))
        print(f"viewer page, first view (replay not cached): {cold:7.1f} ms  (goal < 300 ms)")
        print(f"viewer page, replay cached:                   {warm:7.1f} ms")
        print(
            f"step request, all hands open:                 {statistics.median(open_times):7.1f} ms"
        )
        print(
            f"step request, one seat's view:                {statistics.median(seat_times):7.1f} ms"
        )
        print(f"replay API, whole game, all hands open:       {replay:7.1f} ms")


if __name__ == "__main__":
    main()
