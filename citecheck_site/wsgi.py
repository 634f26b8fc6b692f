"""WSGI entry point (gunicorn citecheck_site.wsgi).

At start-up each worker checks the database and Redis within a few seconds and logs one line per
problem, naming the variable to fix; it serves anyway (503s while the database is away, work
delayed while Redis is), so a passing outage does not keep the site down.
"""

import logging
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "citecheck_site.settings")

application = get_wsgi_application()

from citecheck_site.preflight import preflight_problems  # noqa: E402 - needs the settings loaded above

for problem in preflight_problems():
    logging.getLogger("citecheck_site.wsgi").warning("web.preflight: %s", problem)
