"""`manage.py add_person USERNAME --role Editor`: add a person from the command line (the
same service as the desk's People and roles page); the generated password is printed once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from citecheck.errors import ServiceError
from reviews.roles import ROLES
from reviews.services.people import person_add


class Command(BaseCommand):
    help = "Add a person with a role (Viewer, Editor or Approver); prints their generated password once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=ROLES)
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user, password = person_add(actor=None, username=options["username"], role=options["role"], email=options["email"])
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"added {user.username} ({options['role']}); password (shown once): {password}")
