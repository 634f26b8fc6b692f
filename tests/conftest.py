"""Shared fixtures: users in each role, a clean Redis, a real RQ worker in burst mode."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import override_settings
from playwright.sync_api import sync_playwright
from redis.exceptions import RedisError

from claims.services.kept import flagged_hours_rebuild
from dispatch.models import WorkRequest, WorkStatus
from dispatch.queues import make_worker, redis_connection
from dispatch.services import outbox_relay
from reviews.roles import roles_sync
from sources.services.kept import state_counts_rebuild


@pytest.fixture(autouse=True)
def _kept_counts_after_flush(request: pytest.FixtureRequest) -> None:
    """SQLite's flush between transactional tests empties the tables with DELETE, in any order:
    when it empties the kept counts before the sources or answers, their delete triggers leave
    negative counts behind (PostgreSQL truncates, which fires no row triggers). Recount them
    before each test that uses the database, as a fresh database would have them."""
    uses_db = {"db", "transactional_db", "django_db_reset_sequences"} & set(request.fixturenames) or request.node.get_closest_marker("django_db")
    if not uses_db or connection.vendor != "sqlite":
        return
    request.getfixturevalue("django_db_setup")
    with request.getfixturevalue("django_db_blocker").unblock():
        state_counts_rebuild()
        flagged_hours_rebuild()


REDIS_HINT = "no Redis: run the suite with `make test` (it starts an embedded Redis) or set REDIS_URL"


def _user(username: str, *groups: str, superuser: bool = False) -> User:
    if groups and not Group.objects.filter(name=groups[0]).exists():
        roles_sync()  # transactional tests flush the data migration's groups
    user = User.objects.create_user(username=username, password="pw-" + username, is_staff=True, is_superuser=superuser)
    for name in groups:
        user.groups.add(Group.objects.get(name=name))
    return user


@pytest.fixture
def viewer(db: None) -> User:
    return _user("viewer", "Viewer")


@pytest.fixture
def editor(db: None) -> User:
    return _user("editor", "Editor")


@pytest.fixture
def editor2(db: None) -> User:
    return _user("editor2", "Editor")


@pytest.fixture
def approver(db: None) -> User:
    return _user("approver", "Approver")


@pytest.fixture
def approver2(db: None) -> User:
    return _user("approver2", "Approver")


@pytest.fixture
def superuser(db: None) -> User:
    return _user("root", superuser=True)


@pytest.fixture
def redis_conn() -> Iterator[object]:
    """The test Redis, emptied first (CI gives the suite a Redis DB of its own)."""


    conn = redis_connection()
    try:
        conn.flushdb()
    except RedisError as exc:
        pytest.fail(f"{REDIS_HINT} ({exc})")
    yield conn


@pytest.fixture
def run_jobs(redis_conn: object) -> Callable[[], int]:
    """Run every queued job with a real RQ worker in burst mode (in this process, so that it
    sees the test database), relaying the outbox first. Returns how many jobs ran."""

    def run(rounds: int = 20) -> int:
        ran = 0
        for _ in range(rounds):
            outbox_relay(min_age_seconds=0)
            before = WorkRequest.objects.filter(status__in=[WorkStatus.DONE, WorkStatus.FAILED]).count()
            make_worker(fork=False).work(burst=True, logging_level="WARNING")
            after = WorkRequest.objects.filter(status__in=[WorkStatus.DONE, WorkStatus.FAILED]).count()
            if after == before and not WorkRequest.objects.filter(status=WorkStatus.PENDING, not_before__isnull=True).exists():
                break
            ran += after - before
        return ran

    return run


@pytest.fixture(autouse=True, scope="session")
def _plain_static_files() -> Iterator[None]:
    """Tests do not run collectstatic, so they use the plain storage (no manifest)."""

    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    with override_settings(STORAGES=storages):
        yield


# --- a real browser (Debian's chromium driven by Playwright) ---------------------------------

CHROMIUM = shutil.which("chromium")



# Module scope: Playwright's sync API keeps an event loop running in this thread while it is
# open, which would break later tests that call asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        pytest.skip("browser tests need Debian's chromium (apt-get install chromium; `make test` does it as root)")

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server, settings):
    settings.ALLOWED_HOSTS = ["*"]
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
