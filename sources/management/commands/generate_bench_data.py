"""`manage.py generate_bench_data [--scale 1.0] [--reset]`: synthetic data for the benchmarks.

At --scale 1.0: 10,000 sources, 200,000 passage versions, 150,000 fetches, 50,000 answers with
250,000 claims, citations and judgements, and 100,000 audit rows (see sources/benchdata.py).
Refuses to run on a database that already has sources unless --reset (which deletes the
knowledge base first: sources, answers, reviews, audit log; users stay). COPY on PostgreSQL.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sources.benchdata import DataPresent, bench_data_generate


class Command(BaseCommand):
    help = "Generate synthetic sources, passages, answers and audit rows for benchmarks (never on a real database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--scale", type=float, default=1.0, help="Fraction of the full size (1.0 = 10,000 sources, 50,000 answers, 100,000 audit rows).")
        parser.add_argument("--reset", action="store_true", help="Delete the existing knowledge base first (needed when the database has sources).")
        parser.add_argument("--batch-size", type=int, default=5000, help="Rows per COPY / INSERT batch.")
        parser.add_argument("--days", type=int, default=30, help="Spread the timestamps over this many past days.")
        parser.add_argument("--seed", type=int, default=9, help="Random seed (same seed, same data).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["scale"] <= 0:
            raise CommandError("--scale must be above 0, e.g. 0.1 for a tenth of the full size.")
        started = time.monotonic()
        try:
            written = bench_data_generate(scale=options["scale"], reset=options["reset"], batch_size=options["batch_size"],
                                          days=options["days"], seed=options["seed"])
        except DataPresent as exc:
            raise CommandError(str(exc)) from exc
        for label, count in written.items():
            self.stdout.write(f"{label}: {count:,}")
        self.stdout.write(f"done in {time.monotonic() - started:.1f} s")
