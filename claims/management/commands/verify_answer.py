from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from claims.services import answer_verify


class Command(BaseCommand):
    help = "Run the whole verification of a stored answer now and print its state and report card."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("answer_id", type=int)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        answer = answer_verify(answer_id=options["answer_id"])
        if answer is None:
            raise CommandError(f"no answer {options['answer_id']}")
        if options["json"]:
            self.stdout.write(json.dumps({"id": answer.pk, "state": answer.state, "wording": answer.state_wording, "report": answer.report}))
            return
        card = answer.report.get("card", {})
        self.stdout.write(f"answer {answer.pk}: {answer.state} (mode: {answer.verification_mode})\nthe bot should say: {answer.state_wording}")
        for claim in answer.report.get("claims", []):
            self.stdout.write(f"  [{claim['state']:>16}] ({claim['confidence']}) {claim['claim']}")
            if claim.get("correction"):
                self.stdout.write(f"      correction: {claim['correction'].get('span')} ({claim['correction'].get('link_text')})")
            for reason in claim.get("pending", []):
                self.stdout.write(f"      pending: {reason}")
        retry = answer.report.get("retry")
        if retry:
            self.stdout.write(f"verification pending: {retry['failures']} judge call(s) failed ({retry['error']}); run it again later")
        if card:
            self.stdout.write(f"verification rate: {card.get('verification_rate_display')} ({card.get('rule')})")
            for gap in card.get("gaps", []):
                self.stdout.write(f"  gap: {gap['claim']} — {gap.get('follow_up', '')}; try: {'; '.join(gap.get('queries', []))}")
