"""Golden pairs are tested against the demo shop, as the sources' tests are."""

from tests.sources.conftest import shop

__all__ = ["shop"]
